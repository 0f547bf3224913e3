// The in-process kvstore's part of `rxbft rollback`: v0.34 expects the app to go back one height
// with the node, and the example kvstore keeps its data in the home (data/kvstore.db), so the
// command takes it back too. The kvstore keeps only current values, so the values a height
// overwrote are found again in the blocks below it (the latest earlier write of each key; no
// earlier write since the chain's first block means the key did not exist). The result is
// checked against the chain: the app hash it gives must be the one the rolled-back block's
// header recorded.
import { existsSync } from "node:fs";
import {
  isValidatorTx,
  type KvstoreApplication,
  type KvstoreState,
  kvKeyOf,
  kvValueOf,
} from "../abci/apps/kvstore.js";
import { kvstoreAppHash } from "../abci/apps/kvstore-app-hash.js";
import { createExampleApp } from "../abci/client/create-client.js";
import { upperHex } from "../bytes.js";
import type { BlockStore } from "../store/block-store.js";
import type { StateStore } from "../store/state-store.js";
import type { ValidatorUpdate } from "../wire/generated/tendermint/abci/types.js";
import { OperationError } from "./errors.js";

export interface KvstoreRollbackPlan {
  /** The app's height before (`from`) and after (`to`). */
  from: bigint;
  to: bigint;
  target: KvstoreState;
  /** App keys written at `from`, with the value each had at `to` (undefined: it did not exist). */
  pairs: [Uint8Array, Uint8Array | undefined][];
  /** persistent_kvstore: the validators as of `to`. */
  validators: ValidatorUpdate[] | undefined;
  /** Heights read to find the earlier values. */
  scannedHeights: number;
}

export interface KvstoreRollback {
  /** What the app's data says now: at `to` already, or a plan to go there. */
  plan: KvstoreRollbackPlan | "already-there";
  apply(): Promise<void>;
  close(): Promise<void>;
}

const same = (a: Uint8Array, b: Uint8Array) => Buffer.from(a).equals(Buffer.from(b));

/**
 * Opens the kvstore in `directory` and plans taking it from height `from` to `to` = from - 1.
 * Returns undefined when the app never stored anything (no directory).
 */
export async function planKvstoreRollback(
  directory: string,
  persistent: boolean,
  from: bigint,
  stores: { blockStore: BlockStore; stateStore: StateStore },
  initialHeight: bigint,
): Promise<KvstoreRollback | undefined> {
  if (!existsSync(directory)) return undefined;
  const app = (await createExampleApp(persistent ? "persistent_kvstore" : "kvstore", {
    kvstoreDir: directory,
  })) as KvstoreApplication;
  try {
    const to = from - 1n;
    const now = app.currentState;
    if (now.height === to) {
      return { plan: "already-there", apply: async () => {}, close: () => app.close() };
    }
    if (now.height !== from) {
      throw new OperationError(
        "OP_APP_ROLLBACK_IMPOSSIBLE",
        `${directory}: the kvstore is at height ${now.height}, but the node's latest height is ${from}: ` +
          "the app's data does not belong with these stores",
      );
    }
    const block = await stores.blockStore.loadBlock(from);
    const below = to >= initialHeight ? await stores.blockStore.loadBlockMeta(to) : undefined;
    if (block === undefined) {
      throw new OperationError("OP_APP_ROLLBACK_IMPOSSIBLE", `block ${from} is not in the block store`);
    }
    const written = new Map<string, Uint8Array>();
    let kvTxs = 0n;
    for (const tx of block.data.txs) {
      if (persistent && isValidatorTx(tx)) continue;
      kvTxs++;
      const key = kvKeyOf(tx);
      written.set(Buffer.from(key).toString("latin1"), key);
    }
    const target: KvstoreState = {
      size: now.size - kvTxs,
      height: to,
      appHash: kvstoreAppHash(now.size - kvTxs),
    };
    // Block `from`'s header carries the app hash after `to`: the rolled-back app must give it.
    if (!same(target.appHash, block.header.appHash)) {
      throw new OperationError(
        "OP_APP_ROLLBACK_IMPOSSIBLE",
        `${directory}: taking the kvstore back to height ${to} gives app hash ${upperHex(target.appHash)}, ` +
          `but block ${from} records ${upperHex(block.header.appHash)}: the app's data does not match the chain`,
      );
    }
    const found = new Map<string, Uint8Array | undefined>();
    let scanned = 0;
    const base = stores.blockStore.base();
    for (let h = to; h >= base && h >= 1n && found.size < written.size && below !== undefined; h--) {
      const earlier = await stores.blockStore.loadBlock(h);
      if (earlier === undefined) break;
      scanned++;
      const txs = earlier.data.txs;
      for (let i = txs.length - 1; i >= 0; i--) {
        const tx = txs[i]!;
        if (persistent && isValidatorTx(tx)) continue;
        const key = kvKeyOf(tx);
        const id = Buffer.from(key).toString("latin1");
        if (written.has(id) && !found.has(id)) found.set(id, kvValueOf(tx, key));
      }
    }
    const unresolved = written.size - found.size;
    if (unresolved > 0 && base > initialHeight) {
      throw new OperationError(
        "OP_APP_ROLLBACK_IMPOSSIBLE",
        `${directory}: ${unresolved} keys written at height ${from} have no earlier write in blocks ` +
          `${base}..${to}, and blocks below ${base} are pruned: their values at height ${to} are unknown`,
      );
    }
    const pairs: [Uint8Array, Uint8Array | undefined][] = [];
    for (const [id, key] of written) pairs.push([key, found.get(id)]);
    let validators: ValidatorUpdate[] | undefined;
    if (persistent) {
      // The app's validators after height `to` are the chain's set for height to + 2.
      const set = await stores.stateStore.loadValidators(to + 2n);
      validators = set.validators.map((v) => ({ pubKey: v.pubKey, power: v.votingPower }));
    }
    const plan: KvstoreRollbackPlan = { from, to, target, pairs, validators, scannedHeights: scanned };
    return {
      plan,
      apply: () => app.rewind(plan.target, plan.pairs, plan.validators),
      close: () => app.close(),
    };
  } catch (error) {
    await app.close();
    throw error;
  }
}
