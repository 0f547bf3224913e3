// A pool of worker threads that verifies batches of ed25519 signatures in parallel.
// A hop to a worker and back costs 100–300 µs (the idle core must wake), about two verifies, so
// small batches run on the calling thread; larger ones are cut into chunks spread over the
// workers, which leaves the main thread (the consensus loop) free meanwhile. Both paths give the
// same answers: each worker runs the same verifier with its own KeyObject cache.
import { availableParallelism } from "node:os";
import type { Worker } from "node:worker_threads";
import { type Ed25519Verifier, verifyEd25519 } from "./ed25519-verify.js";
import { CryptoError } from "./errors.js";
import { DEFAULT_KEY_CACHE_SIZE } from "./key-object-cache.js";
import { processVerifiedSignatures, type VerifiedSignatures } from "./verified-signatures.js";
import { packVerifyItems } from "./verify-batch-packing.js";
import type { BatchVerifier, VerifyItem } from "./verify-item.js";
import type { VerifyRequest, VerifyResponse } from "./verify-worker.js";
import { startWorkerBeside } from "./worker-start.js";

/**
 * Batches with fewer items than this verify on the calling thread. Measured on the project's
 * 2-core machines by test/bench/commit-verify.bench.ts (see docs/crypto.md): below it the hop
 * costs more than the parallel speed-up gains.
 */
export const DEFAULT_MAIN_THREAD_BELOW = 8;
/** Largest chunk sent to one worker at once: bounds message size and keeps workers evenly fed. */
export const MAX_CHUNK_ITEMS = 256;

export interface VerifyPoolOptions {
  /** Worker threads; default min(2, available cores). 0 verifies everything on the calling thread. */
  size?: number;
  /** Batches smaller than this run on the calling thread (default DEFAULT_MAIN_THREAD_BELOW). */
  mainThreadBelow?: number;
  /** KeyObject cache bound inside each worker. */
  keyCacheSize?: number;
  /** Verifier for the calling-thread path; default the process-wide cached one. */
  mainThreadVerifier?: Ed25519Verifier;
  /**
   * Answers already known for exact triples (a vote heard from several peers): asked first, and
   * told every new answer. Default the process-wide memo; null verifies every item.
   */
  verified?: VerifiedSignatures | null;
}

interface PendingChunk {
  count: number;
  resolve: (answers: Uint8Array) => void;
  reject: (error: Error) => void;
}

interface PoolWorker {
  worker: Worker;
  pending: Map<number, PendingChunk>;
  pendingItems: number;
}

function startWorker(workerData: unknown): Worker {
  return startWorkerBeside(import.meta.url, "verify-worker", workerData);
}

export class VerifyPool implements BatchVerifier {
  readonly size: number;
  readonly mainThreadBelow: number;
  private readonly keyCacheSize: number;
  private readonly verifyHere: (publicKey: Uint8Array, message: Uint8Array, signature: Uint8Array) => boolean;
  private readonly workers: (PoolWorker | undefined)[];
  private readonly verified: VerifiedSignatures | null;
  private nextId = 1;
  private closed = false;

  constructor(options: VerifyPoolOptions = {}) {
    this.size = options.size ?? Math.min(2, availableParallelism());
    if (!Number.isSafeInteger(this.size) || this.size < 0) {
      throw new RangeError(`verify pool size must be a non-negative integer, got ${this.size}`);
    }
    this.mainThreadBelow = options.mainThreadBelow ?? DEFAULT_MAIN_THREAD_BELOW;
    this.keyCacheSize = options.keyCacheSize ?? DEFAULT_KEY_CACHE_SIZE;
    const here = options.mainThreadVerifier;
    this.verifyHere = here ? (k, m, s) => here.verify(k, m, s) : verifyEd25519;
    this.workers = new Array<PoolWorker | undefined>(this.size).fill(undefined);
    this.verified = options.verified === undefined ? processVerifiedSignatures : options.verified;
  }

  /** Starts every worker now rather than on the first large batch; resolves when all are online. */
  async warmUp(): Promise<void> {
    this.assertOpen();
    await Promise.all(
      this.workers.map((_, slot) => {
        const { worker } = this.workerAt(slot);
        return new Promise<void>((resolve, reject) => {
          // A worker that answered before is online already; a ping round-trip proves it either way.
          const id = this.nextId++;
          const pending = (this.workers[slot] as PoolWorker).pending;
          pending.set(id, { count: 0, resolve: () => resolve(), reject });
          const request: VerifyRequest = { id, packed: packVerifyItems([]) };
          worker.ref();
          worker.postMessage(request, [request.packed]);
        });
      }),
    );
  }

  async verifyBatch(items: readonly VerifyItem[]): Promise<boolean[]> {
    this.assertOpen();
    const memo = this.verified;
    if (memo === null) return this.verifyAll(items);
    const answers = new Array<boolean>(items.length);
    const unknown: number[] = [];
    for (let i = 0; i < items.length; i++) {
      const item = items[i]!;
      const known = memo.known(item.publicKey, item.message, item.signature);
      if (known === undefined) unknown.push(i);
      else answers[i] = known;
    }
    if (unknown.length === 0) return answers;
    const fresh = await this.verifyAll(
      unknown.length === items.length ? items : unknown.map((i) => items[i]!),
    );
    for (let j = 0; j < unknown.length; j++) {
      const item = items[unknown[j]!]!;
      answers[unknown[j]!] = fresh[j]!;
      memo.remember(item.publicKey, item.message, item.signature, fresh[j]!);
    }
    return answers;
  }

  /** Every item verified for real: small batches here, larger ones in chunks on the workers. */
  private async verifyAll(items: readonly VerifyItem[]): Promise<boolean[]> {
    const n = items.length;
    if (n === 0) return [];
    if (this.size === 0 || n < this.mainThreadBelow) {
      return items.map((item) => this.verifyHere(item.publicKey, item.message, item.signature));
    }
    const chunkCount = Math.max(Math.min(this.size, n), Math.ceil(n / MAX_CHUNK_ITEMS));
    const chunkSize = Math.ceil(n / chunkCount);
    const chunks: Promise<Uint8Array>[] = [];
    for (let start = 0; start < n; start += chunkSize) {
      chunks.push(this.dispatch(items, start, Math.min(n, start + chunkSize)));
    }
    const parts = await Promise.all(chunks);
    const answers = new Array<boolean>(n);
    let i = 0;
    for (const part of parts) for (const byte of part) answers[i++] = byte === 1;
    return answers;
  }

  /** Stops the workers; batches still in flight reject with CRYPTO_POOL_CLOSED. */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    const stopping: Promise<number>[] = [];
    for (const [slot, entry] of this.workers.entries()) {
      if (!entry) continue;
      this.workers[slot] = undefined;
      this.rejectAll(
        entry,
        new CryptoError("CRYPTO_POOL_CLOSED", "verify pool closed with a batch in flight"),
      );
      stopping.push(entry.worker.terminate());
    }
    await Promise.all(stopping);
  }

  private assertOpen(): void {
    if (this.closed) throw new CryptoError("CRYPTO_POOL_CLOSED", "verify pool is closed");
  }

  private dispatch(items: readonly VerifyItem[], start: number, end: number): Promise<Uint8Array> {
    const slot = this.leastBusySlot();
    const entry = this.workerAt(slot);
    const id = this.nextId++;
    const packed = packVerifyItems(items, start, end);
    return new Promise<Uint8Array>((resolve, reject) => {
      if (entry.pending.size === 0) entry.worker.ref(); // keep the process alive while work is out
      entry.pending.set(id, { count: end - start, resolve, reject });
      entry.pendingItems += end - start;
      const request: VerifyRequest = { id, packed };
      entry.worker.postMessage(request, [packed]);
    });
  }

  private leastBusySlot(): number {
    let best = 0;
    let bestLoad = Number.POSITIVE_INFINITY;
    for (let slot = 0; slot < this.size; slot++) {
      const load = this.workers[slot]?.pendingItems ?? 0;
      if (load < bestLoad) {
        best = slot;
        bestLoad = load;
      }
    }
    return best;
  }

  private workerAt(slot: number): PoolWorker {
    const existing = this.workers[slot];
    if (existing) return existing;
    const worker = startWorker({ keyCacheSize: this.keyCacheSize });
    worker.unref();
    const entry: PoolWorker = { worker, pending: new Map(), pendingItems: 0 };
    worker.on("message", (response: VerifyResponse) => this.settle(entry, response));
    const fail = (reason: string) => {
      if (this.workers[slot] !== entry) return; // closed or already replaced
      this.workers[slot] = undefined; // the next batch starts a fresh worker
      this.rejectAll(entry, new CryptoError("CRYPTO_WORKER_FAILED", `verify worker ${slot} ${reason}`));
      void worker.terminate();
    };
    worker.on("error", (error) => fail(`failed: ${error.message}`));
    worker.on("messageerror", (error) => fail(`sent an unreadable message: ${error.message}`));
    worker.on("exit", (code) => fail(`exited with code ${code}`));
    this.workers[slot] = entry;
    return entry;
  }

  private settle(entry: PoolWorker, response: VerifyResponse): void {
    const chunk = entry.pending.get(response.id);
    if (!chunk) return;
    entry.pending.delete(response.id);
    entry.pendingItems -= chunk.count;
    if (entry.pending.size === 0) entry.worker.unref();
    chunk.resolve(response.answers);
  }

  private rejectAll(entry: PoolWorker, error: Error): void {
    for (const chunk of entry.pending.values()) chunk.reject(error);
    entry.pending.clear();
    entry.pendingItems = 0;
  }
}

/** Verifies on the calling thread only: the BatchVerifier for callers without a pool. */
export const mainThreadBatchVerifier: BatchVerifier = {
  async verifyBatch(items) {
    return items.map((item) => verifyEd25519(item.publicKey, item.message, item.signature));
  },
};
