// What the file signer's tests share: a chain id and key, a vote to sign, a fresh state file, and
// node's fs.promises wrapped to log (and optionally hold) each step of the signer's state write.
import { promises as fsPromises, mkdtempSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { basename, join } from "node:path";
import { keyPairFromSeed } from "../../src/crypto/ed25519-keys.js";
import type { AtomicWriteFileHandle, AtomicWriteFs } from "../../src/types/key-file-atomic-write.js";
import {
  INITIAL_PRIV_VALIDATOR_STATE,
  writePrivValidatorState,
} from "../../src/types/key-file-priv-validator-state.js";
import { SignedMsgType, type Vote } from "../../src/wire/generated/tendermint/types/types.js";

export const CHAIN = "test_chain_id";
export const pair = keyPairFromSeed(new Uint8Array(32).fill(9));

export const vote = (height: bigint, type = SignedMsgType.SIGNED_MSG_TYPE_PREVOTE): Vote => ({
  type,
  height,
  round: 0,
  blockId: {
    hash: new Uint8Array(32).fill(1),
    partSetHeader: { total: 1, hash: new Uint8Array(32).fill(2) },
  },
  timestamp: { seconds: 1_700_000_000n, nanos: 0 },
  validatorAddress: new Uint8Array(20).fill(3),
  validatorIndex: 0,
  signature: new Uint8Array(0),
});

/** A state file holding the initial state, in a new temporary folder. */
export function freshStateFile(): string {
  const path = join(mkdtempSync(join(tmpdir(), "rxbft-privval-")), "priv_validator_state.json");
  writePrivValidatorState(path, INITIAL_PRIV_VALIDATOR_STATE);
  return path;
}

/** A call that waits until the test opens it (or fails it). */
export interface Gate {
  /** Resolves once the gated call is waiting. */
  reached: Promise<void>;
  /** Called by the gated code: marks the gate reached and waits for it. */
  enter(): Promise<void>;
  open(): void;
  fail(error: Error): void;
}

export function gate(): Gate {
  let markReached!: () => void;
  let open!: () => void;
  let fail!: (e: Error) => void;
  const reached = new Promise<void>((resolve) => {
    markReached = resolve;
  });
  const released = new Promise<void>((resolve, reject) => {
    open = resolve;
    fail = reject;
  });
  return {
    reached,
    enter() {
      markReached();
      return released;
    },
    open,
    fail,
  };
}

/**
 * node's fs.promises, logging every step; the fsync of a temporary file waits for the next gate
 * handed out by `gates` (when there is one).
 */
export function recordingFs(log: string[], gates: Gate[] = []): AtomicWriteFs {
  return {
    async open(path, flags, mode) {
      const handle = await fsPromises.open(path, flags, mode);
      const name = path.endsWith(".tmp") ? "temp" : statSync(path).isDirectory() ? "dir" : basename(path);
      log.push(`open ${name}`);
      const wrapped: AtomicWriteFileHandle = {
        async write(buffer, offset, length) {
          log.push(`write ${name}`);
          return handle.write(buffer, offset, length);
        },
        async sync() {
          log.push(`fsync ${name}`);
          if (name === "temp") {
            const g = gates.shift();
            if (g) await g.enter();
          }
          await handle.sync();
        },
        async close() {
          log.push(`close ${name}`);
          await handle.close();
        },
      };
      return wrapped;
    },
    async rename(from, to) {
      log.push("rename");
      await fsPromises.rename(from, to);
    },
    async rm(path, options) {
      log.push("rm temp");
      await fsPromises.rm(path, options);
    },
  };
}
