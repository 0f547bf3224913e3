// The interface of a running node, as everything outside the node's loops reads it: the RPC
// context (streams/projections/rpc-context.ts), the commands, and tests. Only data and
// promises cross it: the loops, effect handlers and subscriptions stay inside streams/node.ts.
//
// Domain forms throughout (docs/architecture.md): bytes are Uint8Array, int64 are bigint,
// protobuf-generated interfaces are the data model.
import type { Observable } from "rxjs";
import type { QueryConnection } from "../src/abci/client/abci-client.js";
import type { NodeConfig } from "../src/config/config-schema.js";
import type { ConsensusState } from "../src/consensus/state.js";
import type { MempoolState } from "../src/mempool/state.js";
import type { BlockStore } from "../src/store/block-store.js";
import type { BlockIndexReader, TxIndexReader } from "../src/store/indexer/event-indexer.js";
import type { StateStore } from "../src/store/state-store.js";
import type { GenesisDoc } from "../src/types/genesis.js";
import type {
  ResponseCheckTx,
  ResponseDeliverTx,
  ResponseInfo,
} from "../src/wire/generated/tendermint/abci/types.js";
import type { State as ChainState } from "../src/wire/generated/tendermint/state/types.js";
import type { Evidence } from "../src/wire/generated/tendermint/types/evidence.js";
import type { TxSha256 } from "../src/wire/hashes.js";
import type { PeersView } from "./p2p-layer.js";

/**
 * One event of the node's event bus, with Tendermint's names (reference §1.5). Structurally the
 * RpcEvent of src/rpc/context.ts, so an RPC context can pass these through unchanged.
 *
 * `data` by `type` (domain forms, camelCase of the JSON keys):
 * - NewBlock: {block, resultBeginBlock, resultEndBlock}
 * - NewBlockHeader: {header, numTxs, resultBeginBlock, resultEndBlock}
 * - Tx: {txResult: TxResult} (TxResult = {height, index, tx, result: ResponseDeliverTx})
 * - ValidatorSetUpdates: {validatorUpdates: Validator[]} (address, pubKey, votingPower, proposerPriority)
 * - NewRound: {height, round, step, proposer: {address, index}}
 * - CompleteProposal: {height, round, step, blockId}
 * - Vote: {vote}
 * - NewRoundStep, TimeoutPropose, TimeoutWait, Polka, Lock, Unlock, Relock, ValidBlock: {height, round, step}
 *   where step is the name ("RoundStepPropose").
 * `events` is the composite-key map queries match against: tm.event always; for Tx also tx.hash
 * (upper-case hex) and tx.height; for NewBlock/NewBlockHeader the BeginBlock and EndBlock event
 * attributes as "type.key"; for Tx its DeliverTx event attributes.
 */
export interface NodeEvent {
  type: string;
  data: unknown;
  events: Record<string, string[]>;
}

/** What the node tells peers and `status` about itself. */
export interface NodeInfoView {
  /** hex of the first 20 bytes of sha256 of the node key */
  nodeId: string;
  moniker: string;
  /** the chain id */
  network: string;
  /** our software version (src/version.ts) */
  version: string;
  /** p2p listen address from the config */
  listenAddr: string;
  /** the address the RPC server actually listens on ("tcp://127.0.0.1:26657"), "" when it is off */
  rpcAddress: string;
  /** p2p, block and app protocol versions */
  protocolVersion: { p2p: bigint; block: bigint; app: bigint };
  txIndex: "on" | "off";
  /** the channel ids we advertise to peers (from the peer layer) */
  channels?: Uint8Array;
}

/** Our validator, when this node has a key (not with an external signer). */
export interface ValidatorInfoView {
  address: Uint8Array;
  /** raw 32-byte ed25519 public key */
  pubKey: Uint8Array;
  /** our power in the current set; 0 when we are not in it */
  votingPower(): bigint;
}

/** How a submitted transaction ended at admission (CheckTx and the mempool's own rules). */
export type AdmissionOutcome =
  | { kind: "added" }
  | { kind: "refused"; code: string; message: string }
  | { kind: "invalid"; code: number };

export interface SubmitResult {
  /** upper-case hex sha256 of the tx */
  hash: string;
  outcome: AdmissionOutcome;
  /**
   * The app's CheckTx answer; undefined when a mempool rule refused the tx before CheckTx (cache
   * hit, too large, pool full), in which case `outcome` says why.
   */
  checkTx: ResponseCheckTx | undefined;
}

/** broadcast_tx_commit's answer once the tx was in a committed block. */
export interface TxCommitResult {
  hash: string;
  checkTx: ResponseCheckTx;
  deliverTx: ResponseDeliverTx;
  height: bigint;
}

export interface NodeMempool {
  /** The mempool's current state (pending txs in arrival order: `state().txs`). */
  state(): MempoolState;
  /**
   * Whether the cache holds this tx hash, counting submissions not folded yet (they are folded once
   * per event-loop turn): broadcast_tx_async refuses a duplicate at once, as v0.34's CheckTx does.
   */
  seen(hash: string): boolean;
  /** Submits a tx as broadcast_tx_sync does: resolves once admission is decided. */
  submit(tx: Uint8Array, from?: string): Promise<SubmitResult>;
  /**
   * The tx as the mempool keeps it (its own bytes, not a view into a larger buffer) with its
   * sha256, hashed once: `key` is what seen() takes, and offer() carries the hash into admission.
   */
  hashTx(tx: Uint8Array): TxSha256;
  /**
   * Submits a tx whose outcome nobody waits for (broadcast_tx_async, hashed by hashTx): the same
   * admission as `submit`, without a promise and a waiter per tx.
   */
  offer(hashed: TxSha256): void;
  /**
   * broadcast_tx_commit: the CheckTx answer at once when admission fails, else waits for the tx's
   * Tx event up to `timeoutMs`. Rejects with NodeError NODE_TX_COMMIT_TIMEOUT (carrying the hash)
   * when the tx was admitted but not committed in time.
   */
  submitAndWaitForCommit(tx: Uint8Array, timeoutMs: number): Promise<TxCommitResult | SubmitResult>;
  /** The `check_tx` route: runs CheckTx without adding the tx to the pool. */
  checkTx(tx: Uint8Array): Promise<ResponseCheckTx>;
  /** `unsafe_flush_mempool`: drops every pending tx and the cache. */
  flush(): void;
}

export interface NodeStores {
  blockStore: BlockStore;
  stateStore: StateStore;
  txIndexer: TxIndexReader;
  blockIndexer: BlockIndexReader;
}

/** Why and how the node stopped. */
export interface NodeExit {
  /** the process exit code: 0 after a requested stop */
  exitCode: number;
  /** "stopped" after stop(); otherwise what halted the node (named for the operator) */
  reason: string;
}

export interface NodeHandle {
  readonly config: NodeConfig;
  readonly genesis: GenesisDoc;
  readonly nodeInfo: NodeInfoView;
  readonly validator: ValidatorInfoView | undefined;
  /** Latest consensus state, replayed to late subscribers. */
  readonly consensusState$: Observable<ConsensusState>;
  latestConsensusState(): ConsensusState;
  /** The chain state after the last committed block (as the state store holds it). */
  chainState(): ChainState;
  /** Every event the node publishes, hot: subscribe to see what comes after. */
  readonly events$: Observable<NodeEvent>;
  /** Registers a listener per event (for code outside streams/ that must not subscribe). */
  subscribeEvents(listener: (event: NodeEvent) => void): () => void;
  readonly stores: NodeStores;
  readonly mempool: NodeMempool;
  /** The app's query connection (abci_info, abci_query). */
  readonly abciQuery: QueryConnection;
  /** The evidence pool's intake (broadcast_evidence): throws with the reason when it refuses. */
  readonly evidence: { addEvidence(evidence: Evidence): Promise<void> | void };
  /** The app's Info answer at start (handshake). */
  readonly appInfo: ResponseInfo;
  /** The peer layer as the RPC sees it (net_info, dial_seeds, dial_peers); absent without one. */
  readonly peers?: PeersView;
  /** True while the node catches up (block sync); always false for a single node. */
  catchingUp(): boolean;
  /** Stops accepting inputs, finishes or abandons the current step safely, syncs the WAL, closes stores. */
  stop(): Promise<NodeExit>;
  /** Resolves when the node has stopped, by stop() or by a halt. */
  readonly stopped: Promise<NodeExit>;
}
