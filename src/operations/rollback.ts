// `rxbft rollback [--hard]`: takes the node's state back one height, as Tendermint v0.34's
// `rollback` does after an app bug wrote a wrong app hash: the state of height H is replaced by
// the state of H-1, rebuilt from the stored validator sets, consensus params and block H's
// header (which carries the app hash and results hash agreed for H-1). Block H stays, so the node
// executes it again at its next start. `--hard` also removes block H (as later CometBFT lines do);
// the node then decides height H anew. The in-process kvstore goes back with the node (v0.34
// expects the app to); an app behind a socket is the operator's to roll back.
//
// Writes happen in this order, each one atomic: app, state, block, consensus log. Stopped at any
// point, the home is one the node starts from (the handshake re-executes what the app lacks), and
// running the command again finishes the job: a state already one below the block store is
// taken as rolled back.
import { existsSync, renameSync } from "node:fs";
import { dirname, join } from "node:path";
import { isInProcessApp } from "../abci/client/create-client.js";
import { upperHex } from "../bytes.js";
import { sha256 } from "../crypto/hash.js";
import { openKvIndex, openStores, type Stores, TX_INDEX_DB } from "../store/open-stores.js";
import { readPrivValidatorState } from "../types/key-file-priv-validator-state.js";
import { ValidatorSet } from "../types/validator-set.js";
import type { State } from "../wire/generated/tendermint/state/types.js";
import { OperationError } from "./errors.js";
import { type KvstoreRollback, planKvstoreRollback } from "./kvstore-rollback.js";
import { type OperatorHome, withStoppedHome } from "./operator-home.js";

export interface RollbackOptions {
  /** Also remove the latest block (and move the consensus log of its height aside). */
  hard: boolean;
}

export interface RollbackReport {
  /** The state's height before and after. */
  fromHeight: bigint;
  toHeight: bigint;
  /** The app hash of the state now saved (the app's hash after toHeight). */
  appHash: Uint8Array;
  /** The block removed by --hard. */
  removedBlock: bigint | undefined;
  /** Where --hard moved the consensus log. */
  movedLog: string | undefined;
}

const advanceProposerPriority = (
  set: Parameters<typeof ValidatorSet.fromProto>[0],
  times: bigint,
): Parameters<typeof ValidatorSet.fromProto>[0] =>
  ValidatorSet.fromProto(set).incrementProposerPriority(Number(times)).toProto();

export async function rollback(
  home: OperatorHome,
  options: RollbackOptions,
  say: (line: string) => void,
): Promise<RollbackReport> {
  return withStoppedHome(home, "roll back the state", async () => {
    const stores = await openStores(home.paths.dataDir, { indexer: "null", advanceProposerPriority });
    let app: KvstoreRollback | undefined;
    try {
      const state = stores.stateStore.load();
      if (state === undefined) {
        throw new OperationError(
          "OP_NOTHING_TO_ROLL_BACK",
          `${join(home.paths.dataDir, "state.db")}: no state saved yet (the node never committed a block): nothing to roll back`,
        );
      }
      const stateHeight = state.lastBlockHeight;
      const blockHeight = stores.blockStore.height();
      if (blockHeight === stateHeight + 1n && stateHeight > 0n) {
        // A state already one below the block store: an earlier rollback (or a stop between
        // saving a block and its state). Only --hard has something left to do.
        if (!options.hard) {
          throw new OperationError(
            "OP_NOTHING_TO_ROLL_BACK",
            `the state is at height ${stateHeight}, already one below the block store (${blockHeight}): ` +
              `the node executes block ${blockHeight} again at its next start. Nothing to roll back; ` +
              `use --hard to remove block ${blockHeight} too`,
          );
        }
        say(`The state is at height ${stateHeight}; removing block ${blockHeight} (--hard).`);
        app = await planApp(home, stores, blockHeight, state.initialHeight, say);
        await app?.apply();
        const movedLog = await removeBlock(home, stores, blockHeight, say);
        say(`Rolled back state to height ${stateHeight} and hash ${upperHex(state.appHash)}`);
        return {
          fromHeight: stateHeight,
          toHeight: stateHeight,
          appHash: state.appHash,
          removedBlock: blockHeight,
          movedLog,
        };
      }
      if (blockHeight !== stateHeight) {
        throw new OperationError(
          "OP_INCONSISTENT_STORES",
          `the block store is at height ${blockHeight} and the state at ${stateHeight}: ` +
            "rollback needs them equal (or the block store one ahead); start the node once to let it reconcile them",
        );
      }
      const target = await previousState(stores, state);
      say(
        `Rolling back the state from height ${stateHeight} to ${target.lastBlockHeight}` +
          (options.hard
            ? `, and removing block ${stateHeight} (--hard).`
            : `; block ${stateHeight} stays and is executed again at the next start.`),
      );
      app = await planApp(home, stores, stateHeight, state.initialHeight, say);
      await app?.apply();
      await stores.stateStore.rollBackTo(target, options.hard ? stateHeight : undefined);
      const movedLog = options.hard ? await removeBlock(home, stores, stateHeight, say) : undefined;
      say(`Rolled back state to height ${target.lastBlockHeight} and hash ${upperHex(target.appHash)}`);
      return {
        fromHeight: stateHeight,
        toHeight: target.lastBlockHeight,
        appHash: target.appHash,
        removedBlock: options.hard ? stateHeight : undefined,
        movedLog,
      };
    } finally {
      await app?.close();
      await stores.close();
    }
  });
}

/**
 * The state after height H-1, from the state after H: the sets shift down one height, the last
 * block is H-1's, and the app and results hashes come from block H's header (agreed on for H-1).
 * The change heights are read from the records of H-1's state (H+1's validators and H's params),
 * not guessed from H's.
 */
async function previousState(stores: Stores, state: State): Promise<State> {
  const height = state.lastBlockHeight;
  const to = height - 1n;
  if (height <= state.initialHeight) {
    throw new OperationError(
      "OP_NOTHING_TO_ROLL_BACK",
      `the state is at height ${height}, the chain's first block (initial_height ${state.initialHeight}): ` +
        "there is no earlier state to go back to (reset-state starts the chain again)",
    );
  }
  const previousMeta = await stores.blockStore.loadBlockMeta(to);
  const latestMeta = await stores.blockStore.loadBlockMeta(height);
  if (previousMeta === undefined || latestMeta === undefined) {
    throw new OperationError(
      "OP_NOTHING_TO_ROLL_BACK",
      `block ${previousMeta === undefined ? to : height} is not in the block store (base ${stores.blockStore.base()}): ` +
        `the state of height ${to} cannot be rebuilt`,
    );
  }
  let lastValidators: State["lastValidators"];
  let consensusParams: State["consensusParams"];
  try {
    lastValidators = await stores.stateStore.loadValidators(to);
    consensusParams = await stores.stateStore.loadConsensusParams(height);
  } catch (error) {
    throw new OperationError(
      "OP_NOTHING_TO_ROLL_BACK",
      `the state of height ${to} cannot be rebuilt: ${(error as Error).message} (pruned?)`,
      { cause: error },
    );
  }
  const validatorsChanged = stores.stateStore.validatorsChangedAt(height + 1n);
  const paramsChanged = stores.stateStore.paramsChangedAt(height);
  return {
    version: { consensus: latestMeta.header.version, software: state.version.software },
    chainId: state.chainId,
    initialHeight: state.initialHeight,
    lastBlockHeight: to,
    lastBlockId: previousMeta.blockId,
    lastBlockTime: previousMeta.header.time,
    nextValidators: state.validators,
    validators: state.lastValidators,
    lastValidators,
    // Without a record (never the case for a state this node saved), the change heights cannot
    // be later than the heights they describe.
    lastHeightValidatorsChanged: validatorsChanged ?? minBig(state.lastHeightValidatorsChanged, height + 1n),
    consensusParams,
    lastHeightConsensusParamsChanged: paramsChanged ?? minBig(state.lastHeightConsensusParamsChanged, height),
    lastResultsHash: latestMeta.header.lastResultsHash,
    appHash: latestMeta.header.appHash,
  };
}

const minBig = (a: bigint, b: bigint) => (a < b ? a : b);

/** The in-process app's part, or a note on what the operator does with an external app. */
async function planApp(
  home: OperatorHome,
  stores: Stores,
  from: bigint,
  initialHeight: bigint,
  say: (line: string) => void,
): Promise<KvstoreRollback | undefined> {
  const proxyApp = home.config.proxy_app;
  if (proxyApp === "kvstore" || proxyApp === "persistent_kvstore") {
    const dir = join(home.paths.dataDir, "kvstore.db");
    const app = await planKvstoreRollback(
      dir,
      proxyApp === "persistent_kvstore",
      from,
      stores,
      initialHeight,
    );
    if (app === undefined)
      say(`The in-process ${proxyApp} has no data yet (${dir}): nothing to roll back there.`);
    else if (app.plan === "already-there")
      say(`The in-process ${proxyApp} is already at height ${from - 1n}.`);
    else {
      say(
        `Rolling back the in-process ${proxyApp} (${dir}) from height ${from} to ${from - 1n}: ` +
          `${app.plan.pairs.length} keys restored from blocks below (${app.plan.scannedHeights} read), ` +
          `app hash ${upperHex(app.plan.target.appHash)}.`,
      );
    }
    return app;
  }
  if (isInProcessApp(proxyApp)) {
    say(
      `The in-process ${proxyApp} keeps no data between runs: the node replays the chain into it at start.`,
    );
  } else {
    if (existsSync(join(home.paths.dataDir, "kvstore.db"))) {
      say(
        `Note: ${join(home.paths.dataDir, "kvstore.db")} exists: if the node runs the in-process kvstore, ` +
          "stop here and run again with --proxy_app kvstore so it is rolled back too.",
      );
    }
    say(
      `The app at ${proxyApp} is not part of this home: roll it back to height ${from - 1n} as well ` +
        "(v0.34 expects the app to go back with the node).",
    );
  }
  return undefined;
}

/** --hard: removes block `height` and moves the consensus log (which ends that height) aside. */
async function removeBlock(
  home: OperatorHome,
  stores: Stores,
  height: bigint,
  say: (line: string) => void,
): Promise<string | undefined> {
  await removeFromIndex(home, stores, height, say);
  await stores.blockStore.deleteLatestBlock();
  say(`Removed block ${height} from the block store (now at height ${stores.blockStore.height()}).`);
  const logDir = dirname(home.paths.walFile);
  if (!existsSync(logDir)) {
    warnSignedAhead(home, height, say);
    return undefined;
  }
  let aside = `${logDir}.before-rollback-${height}`;
  for (let n = 1; existsSync(aside); n++) aside = `${logDir}.before-rollback-${height}.${n}`;
  // One rename: the log is either whole in place or whole aside. Kept, not deleted: it records
  // what this validator signed at the removed height.
  renameSync(logDir, aside);
  say(`Moved the consensus log ${logDir} (it ends height ${height}) to ${aside}.`);
  warnSignedAhead(home, height, say);
  return aside;
}

/**
 * The signer's state is never rolled back: a validator that signed at the removed height refuses
 * to sign there again (with a different block that would be a double sign), and the node halts
 * when asked to. Said up front, with the only way out on a chain where nobody else has the key.
 */
function warnSignedAhead(home: OperatorHome, removed: bigint, say: (line: string) => void): void {
  const file = home.paths.privValidatorStateFile;
  if (!existsSync(file)) return;
  let signed: bigint;
  try {
    signed = readPrivValidatorState(file).height;
  } catch {
    return;
  }
  if (signed < removed) return;
  say(
    `Warning: this validator's signer (${file}) has signed up to height ${signed}; it refuses to sign ` +
      `heights ${removed}..${signed} again (double-sign protection), so the node halts when asked to. ` +
      "On a chain where no other node holds this key (a local devnet), run `rxbft unsafe_reset_priv_validator` " +
      "before starting and start once with --consensus.double_sign_check_height 0; never do that on a network.",
  );
}

/**
 * --hard: the kv index forgets the removed block's txs and events, so `tx` and `tx_search` never
 * answer with a tx that is no longer in the chain. Done before the block goes (its txs name what
 * to remove); removing twice is harmless, so a rerun after an interruption is too.
 */
async function removeFromIndex(
  home: OperatorHome,
  stores: Stores,
  height: bigint,
  say: (line: string) => void,
): Promise<void> {
  const dir = join(home.paths.dataDir, TX_INDEX_DB);
  if (!existsSync(dir)) return;
  const block = await stores.blockStore.loadBlock(height);
  if (block === undefined) return;
  const kv = await openKvIndex(home.paths.dataDir, undefined);
  try {
    const index = kv.indexer;
    await index.removeHeight(
      height,
      block.data.txs.map((tx) => sha256(tx)),
    );
    say(`Removed height ${height} from the event index (${block.data.txs.length} txs).`);
  } finally {
    await kv.close();
  }
}
