// The ABCI handshake at start (v0.34 consensus/replay.go): ask the app where it is (Info), send
// InitChain to an app with no state, then replay the stored blocks the app has not seen, so app,
// block store and state store agree before consensus starts. Any disagreement that cannot be
// repaired stops the node with both sides' values in the message.

import { upperHex } from "../bytes.js";
import { applyInitChain } from "../state/genesis-state.js";
import { blockHash } from "../types/block.js";
import { toAbciConsensusParams } from "../types/consensus-params.js";
import type { GenesisDoc } from "../types/genesis.js";
import type { ResponseInfo } from "../wire/generated/tendermint/abci/types.js";
import type { ABCIResponses, State } from "../wire/generated/tendermint/state/types.js";
import type { Block } from "../wire/generated/tendermint/types/block.js";
import type { BlockMeta } from "../wire/generated/tendermint/types/types.js";
import type { ValidatorSet as ProtoValidatorSet } from "../wire/generated/tendermint/types/validator.js";
import { ReplayResponsesApplication } from "./apps/replay-responses.js";
import type { AbciClient, AbciLogger } from "./client/abci-client.js";
import { NODE_INFO_REQUEST, silentLogger } from "./client/abci-client.js";
import { InProcessAbciClient } from "./client/in-process-client.js";
import { AbciError } from "./errors.js";
import { commitBlockOnApp, executeBlock } from "./execute-block.js";
import { initChainValidators } from "./init-chain-validators.js";

/** What the handshake reads from the block store (src/store/block-store.ts satisfies it). */
export interface HandshakeBlockStore {
  base(): bigint;
  height(): bigint;
  loadBlock(height: bigint): Promise<Block | undefined>;
  loadBlockMeta(height: bigint): Promise<BlockMeta | undefined>;
}

/** What the handshake reads and writes in the state store (src/store/state-store.ts satisfies it). */
export interface HandshakeStateStore {
  loadValidators(height: bigint): Promise<ProtoValidatorSet>;
  loadABCIResponses(height: bigint): Promise<ABCIResponses | undefined>;
  save(state: State, abciResponses?: ABCIResponses): Promise<void>;
}

export interface HandshakeDeps {
  client: AbciClient;
  genesis: GenesisDoc;
  blockStore: HandshakeBlockStore;
  stateStore: HandshakeStateStore;
  logger?: AbciLogger;
}

export interface HandshakeResult {
  /** The state consensus starts from (saved when the handshake changed it). */
  state: State;
  /** The app's hash after the handshake; equals state.appHash. */
  appHash: Uint8Array;
  appInfo: ResponseInfo;
  /** Blocks sent to the app (or to the replay of saved responses). */
  replayedBlocks: number;
}

const hex = (b: Uint8Array) => (b.length === 0 ? "(empty)" : upperHex(b));
const equal = (a: Uint8Array, b: Uint8Array) => Buffer.compare(Buffer.from(a), Buffer.from(b)) === 0;

function mismatch(what: string, app: Uint8Array, ours: Uint8Array): AbciError {
  return new AbciError(
    "ABCI_HANDSHAKE_APP_HASH_MISMATCH",
    `app hash mismatch ${what}: the app has ${hex(app)}, the node expects ${hex(ours)}. ` +
      "The app's state does not belong to this chain (wrong data directory, or a non-deterministic app)",
  );
}

export async function handshake(deps: HandshakeDeps, initialState: State): Promise<HandshakeResult> {
  const logger = deps.logger ?? silentLogger;
  const info = await deps.client.query.info(NODE_INFO_REQUEST);
  const appHeight = info.lastBlockHeight;
  if (appHeight < 0n) {
    throw new AbciError(
      "ABCI_HANDSHAKE_INVALID",
      `the app reports a negative last block height ${appHeight}`,
      "query",
    );
  }
  logger.info("ABCI handshake app info", {
    height: appHeight,
    hash: hex(info.lastBlockAppHash),
    software: info.version,
    appVersion: info.appVersion,
  });
  let state = initialState;
  // Only a chain still at genesis takes its app version from the app.
  if (state.lastBlockHeight === 0n) {
    state = {
      ...state,
      version: { ...state.version, consensus: { ...state.version.consensus, app: info.appVersion } },
    };
  }
  const replay = new Replay(deps, logger);
  const out = await replay.run(state, info.lastBlockAppHash, appHeight);
  logger.info("completed ABCI handshake: node and app are synced", {
    appHeight: out.state.lastBlockHeight,
    appHash: hex(out.appHash),
  });
  return { ...out, appInfo: info };
}

class Replay {
  replayed = 0;
  constructor(
    private readonly deps: HandshakeDeps,
    private readonly logger: AbciLogger,
  ) {}

  async run(
    start: State,
    appHashIn: Uint8Array,
    appHeight: bigint,
  ): Promise<{ state: State; appHash: Uint8Array; replayedBlocks: number }> {
    const { blockStore, genesis } = this.deps;
    let state = start;
    let appHash = appHashIn;
    const storeBase = blockStore.base();
    const storeHeight = blockStore.height();
    const stateHeight = state.lastBlockHeight;
    this.logger.info("ABCI replay blocks", { appHeight, storeHeight, stateHeight });

    if (appHeight === 0n) {
      const response = await this.deps.client.consensus.initChain({
        time: genesis.genesisTime,
        chainId: genesis.chainId,
        consensusParams: toAbciConsensusParams(genesis.consensusParams),
        validators: initChainValidators(genesis),
        appStateBytes: genesis.appStateBytes,
        initialHeight: genesis.initialHeight,
      });
      appHash = response.appHash;
      if (
        genesis.appHash.length > 0 &&
        response.appHash.length > 0 &&
        !equal(genesis.appHash, response.appHash)
      ) {
        throw mismatch("after InitChain against genesis app_hash", response.appHash, genesis.appHash);
      }
      // The app's answer shapes the state only while the state is still at genesis.
      if (stateHeight === 0n) {
        try {
          state = applyInitChain(state, response);
        } catch (err) {
          throw new AbciError(
            "ABCI_HANDSHAKE_INVALID",
            `InitChain answer refused: ${(err as Error).message}`,
            "consensus",
            {
              cause: err,
            },
          );
        }
        await this.deps.stateStore.save(state);
      }
    }

    const done = () => ({ state, appHash, replayedBlocks: this.replayed });
    if (storeHeight === 0n) {
      this.assertState(appHash, state);
      return done();
    }
    if (appHeight === 0n && state.initialHeight < storeBase) {
      throw new AbciError(
        "ABCI_HANDSHAKE_MISSING_DATA",
        `the app has no state and the block store is pruned up to height ${storeBase}: blocks from ${state.initialHeight} are gone, so the app cannot be rebuilt`,
      );
    }
    if (appHeight > 0n && appHeight < storeBase - 1n) {
      throw new AbciError(
        "ABCI_HANDSHAKE_MISSING_DATA",
        `the app is at height ${appHeight} but the block store starts at ${storeBase}: blocks in between are pruned`,
      );
    }
    if (storeHeight < appHeight) {
      throw new AbciError(
        "ABCI_HANDSHAKE_APP_AHEAD",
        `the app's last block height ${appHeight} is higher than the node's ${storeHeight}: the app has state this node never committed`,
      );
    }
    // The height the state expects next: initial_height while the state is at genesis.
    const stateNext = stateHeight === 0n ? state.initialHeight : stateHeight + 1n;
    if (storeHeight !== stateHeight && storeHeight !== stateNext) {
      throw new AbciError(
        "ABCI_HANDSHAKE_INVALID",
        `block store height ${storeHeight} and state height ${stateHeight} are inconsistent (the store must be at the state's height or hold the next block, ${stateNext})`,
      );
    }
    // An app that has seen no block of this chain may report initial_height - 1 or 0.
    const appAtState =
      appHeight === stateHeight || (stateHeight === 0n && appHeight === state.initialHeight - 1n);

    if (storeHeight === stateHeight) {
      if (appHeight < storeHeight) {
        appHash = await this.replayOnApp(state, appHash, appHeight, storeHeight);
      }
      this.assertState(appHash, state);
      return done();
    }
    // The store holds one block more than the state: the node stopped between saving the block
    // and saving the state after it.
    if (appAtState) {
      // The block runs on the app's state: it must be the state the node recorded.
      this.assertState(appHash, state);
      state = await this.applyStoredBlock(state, storeHeight, undefined);
      appHash = state.appHash;
    } else if (appHeight < stateHeight) {
      appHash = await this.replayOnApp(state, appHash, appHeight, storeHeight - 1n);
      this.assertState(appHash, state);
      state = await this.applyStoredBlock(state, storeHeight, undefined);
      appHash = state.appHash;
    } else if (appHeight !== storeHeight) {
      throw new AbciError(
        "ABCI_HANDSHAKE_INVALID",
        `the app's last block height ${appHeight} is neither the state's ${stateHeight} nor the block store's ${storeHeight}`,
      );
    } else {
      // The app committed the last block but the node did not record the state: rebuild it from
      // the ABCI responses saved before that Commit, with the app's hash.
      const saved = await this.deps.stateStore.loadABCIResponses(storeHeight);
      if (saved === undefined) {
        throw new AbciError(
          "ABCI_HANDSHAKE_MISSING_DATA",
          `the app committed height ${storeHeight} but the node has neither the state nor the ABCI responses of that height`,
        );
      }
      state = await this.applyStoredBlock(state, storeHeight, new ReplayResponsesApplication(saved, appHash));
    }
    this.assertState(appHash, state);
    return done();
  }

  /** Sends blocks appHeight+1 … last to the app without touching the state. */
  private async replayOnApp(
    state: State,
    appHashIn: Uint8Array,
    appHeight: bigint,
    last: bigint,
  ): Promise<Uint8Array> {
    let appHash = appHashIn;
    const first = appHeight === 0n ? state.initialHeight : appHeight + 1n;
    for (let h = first; h <= last; h++) {
      const block = await this.loadBlock(h);
      if (appHash.length > 0 && !equal(appHash, block.header.appHash)) {
        throw mismatch(`before replaying height ${h}`, appHash, block.header.appHash);
      }
      const lastValidators =
        h === state.initialHeight ? [] : (await this.deps.stateStore.loadValidators(h - 1n)).validators;
      const out = await commitBlockOnApp(
        this.deps.client.consensus,
        block,
        blockHash(block),
        lastValidators,
        state.initialHeight,
      );
      appHash = out.appHash;
      this.replayed++;
      this.logger.info("replayed block on the app", { height: h, appHash: hex(appHash) });
    }
    return appHash;
  }

  /** Executes stored block `height` with state updates (on the app, or on saved responses). */
  private async applyStoredBlock(
    state: State,
    height: bigint,
    mock: ReplayResponsesApplication | undefined,
  ): Promise<State> {
    const block = await this.loadBlock(height);
    const meta = await this.deps.blockStore.loadBlockMeta(height);
    if (meta === undefined) {
      throw new AbciError(
        "ABCI_HANDSHAKE_MISSING_DATA",
        `the block store has block ${height} but not its meta (block ID)`,
      );
    }
    const consensus = mock ? new InProcessAbciClient(mock).consensus : this.deps.client.consensus;
    const out = await executeBlock({ consensus, logger: this.logger }, state, block, meta.blockId);
    await this.deps.stateStore.save(out.state, out.responses);
    this.replayed++;
    return out.state;
  }

  private async loadBlock(height: bigint): Promise<Block> {
    const block = await this.deps.blockStore.loadBlock(height);
    if (block === undefined) {
      throw new AbciError("ABCI_HANDSHAKE_MISSING_DATA", `block ${height} is missing from the block store`);
    }
    return block;
  }

  private assertState(appHash: Uint8Array, state: State): void {
    if (!equal(appHash, state.appHash)) {
      throw mismatch(`at height ${state.lastBlockHeight}`, appHash, state.appHash);
    }
  }
}
