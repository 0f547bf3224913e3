// The body of a verify-pool worker thread: verifies packed batches with its own KeyObject cache
// and answers with one byte per item (1 valid, 0 not), transferred back to the pool.
import { parentPort, workerData } from "node:worker_threads";
import { Ed25519Verifier } from "./ed25519-verify.js";
import { forEachPackedItem } from "./verify-batch-packing.js";

export interface VerifyRequest {
  id: number;
  packed: ArrayBuffer;
}

export interface VerifyResponse {
  id: number;
  answers: Uint8Array;
}

const port = parentPort;
if (port === null) throw new Error("verify-worker must run in a worker thread");
const { keyCacheSize } = workerData as { keyCacheSize: number };
const verifier = new Ed25519Verifier(keyCacheSize);

port.on("message", (request: VerifyRequest) => {
  const count = new Uint32Array(request.packed, 0, 1)[0] as number;
  const answers = new Uint8Array(count);
  forEachPackedItem(request.packed, (publicKey, message, signature, i) => {
    answers[i] = verifier.verify(publicKey, message, signature) ? 1 : 0;
  });
  const response: VerifyResponse = { id: request.id, answers };
  port.postMessage(response, [answers.buffer]);
});
