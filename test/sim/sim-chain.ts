// The simulated chain: validator keys derived from the run's seed (real ed25519, so signatures
// and evidence are the real thing), the genesis state built by src/state's rules, and the
// deterministic "application" each validator executes blocks with: src/state's next-state rules
// (validator set and params carried, proposer priority advanced, last results hash) with an app
// hash of sha256(previous app hash ‖ height ‖ txs), so a divergent execution shows in the next
// header. A block without txs leaves the app hash as it was (as kvstore does), so
// create_empty_blocks = false has heights that wait for transactions.
import { createHash, type KeyObject } from "node:crypto";
import { responseDeliverTx, responseEndBlock } from "../../src/abci/apps/responses.js";
import { keyPairFromSeed, privateKeyObjectFromSeed } from "../../src/crypto/ed25519-keys.js";
import { addressOf } from "../../src/crypto/hash.js";
import { stateFromGenesis } from "../../src/state/genesis-state.js";
import { nextState, withAppHash } from "../../src/state/next-state.js";
import { defaultConsensusParams } from "../../src/types/consensus-params.js";
import type { Timestamp } from "../../src/wire/generated/google/protobuf/timestamp.js";
import type { State as ChainState } from "../../src/wire/generated/tendermint/state/types.js";
import type { Block } from "../../src/wire/generated/tendermint/types/block.js";
import type { BlockID } from "../../src/wire/generated/tendermint/types/types.js";
import type { Prng } from "./prng.js";
import { deepFreeze } from "./sim-wire.js";

export const SIM_CHAIN_ID = "rxbft-sim";
/** Genesis time of every simulated chain; virtual time 0 is this instant. */
export const GENESIS_TIME: Timestamp = { seconds: 1_700_000_000n, nanos: 0 };

export interface SimKey {
  readonly publicKey: Uint8Array;
  readonly address: Uint8Array;
  readonly privateKey: KeyObject;
  /** seed ‖ public key, as priv_validator_key.json holds it (what the node's signer is made from). */
  readonly secret: Uint8Array;
}

export function makeKeys(prng: Prng, count: number): SimKey[] {
  return Array.from({ length: count }, () => {
    const seed = prng.bytes(32);
    const pair = keyPairFromSeed(seed);
    return {
      publicKey: pair.publicKey,
      address: addressOf(pair.publicKey),
      privateKey: privateKeyObjectFromSeed(seed),
      secret: pair.privateKey,
    };
  });
}

export function genesisState(keys: readonly SimKey[], powers: readonly bigint[]): ChainState {
  return stateFromGenesis({
    genesisTime: GENESIS_TIME,
    chainId: SIM_CHAIN_ID,
    initialHeight: 1n,
    consensusParams: defaultConsensusParams(),
    validators: keys.map((k, i) => ({
      address: k.address,
      pubKey: k.publicKey,
      power: powers[i]!,
      name: `v${i}`,
    })),
    appHash: new Uint8Array(0),
    appStateBytes: new Uint8Array(0),
  });
}

/**
 * A run's block executions, shared by its validators. Every honest validator executes the same
 * block on the same chain state, so the first to execute it computes the next state and the
 * others get that very object: their validator sets, hashes and protobuf conversions are then
 * remembered once per run instead of once per validator (src/wire/hashes.ts,
 * ValidatorSet.fromProto). The result is a function of the chain state object and the BlockID
 * (the block hash covers the header and, through its data, evidence and last-commit hashes, the
 * body; the part-set header goes into the next state's lastBlockId), so it is the state each
 * validator would have computed, field for field. It is handed out deep-frozen: node code that
 * changed a chain state in place would throw and fail the run rather than reach a peer's state.
 * One per run, so nothing is carried from one run to the next.
 */
export class SharedExecution {
  private readonly after = new WeakMap<ChainState, Map<string, ChainState>>();

  execute(chain: ChainState, block: Block, blockId: BlockID): ChainState {
    let known = this.after.get(chain);
    if (known === undefined) {
      known = new Map();
      this.after.set(chain, known);
    }
    const key = `${hex(blockId.hash)}/${blockId.partSetHeader.total}/${hex(blockId.partSetHeader.hash)}`;
    let next = known.get(key);
    if (next === undefined) {
      next = deepFreeze(executeSimBlock(chain, block, blockId));
      known.set(key, next);
    }
    return next;
  }
}

const hex = (bytes: Uint8Array) =>
  Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString("hex");

/** The chain state after `block` (committed as `blockId`) ran on the simulated app. */
export function executeSimBlock(chain: ChainState, block: Block, blockId: BlockID): ChainState {
  const deliverTxs = block.data.txs.map((tx) => responseDeliverTx({ data: tx.subarray(0, 4) }));
  const next = nextState(chain, blockId, block.header, { deliverTxs, endBlock: responseEndBlock() });
  if (block.data.txs.length === 0) return withAppHash(next, chain.appHash);
  const height = Buffer.alloc(8);
  height.writeBigUInt64BE(block.header.height);
  const hash = createHash("sha256").update(chain.appHash).update(height);
  for (const tx of block.data.txs) hash.update(tx);
  return withAppHash(next, new Uint8Array(hash.digest()));
}
