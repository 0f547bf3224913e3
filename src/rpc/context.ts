// What the RPC needs from the node, as one interface. The node (streams/) implements it over
// its projections and stores; tests implement it with fakes. Every member is optional: a route
// whose member is missing answers "Internal error" naming what is missing, and never crashes.
//
// Arguments arrive validated and normalised by the route (heights resolved against
// chainHeights(), per_page clamped to [1, 100], order_by checked, queries parsed); results are
// returned in domain form (protobuf-generated interfaces, bigint, Uint8Array) with the keys of
// reference §1.4 in camelCase, and turned into JSON by the ResultEncoder (src/rpc/encoder.ts).

import type { Query } from "../query/index.js";

/** One event as the event bus publishes it (reference §1.5). */
export interface RpcEvent {
  /** Tendermint's event name (`tm.event`): NewBlock, Tx, NewRoundStep, Vote, … */
  type: string;
  /** the event's data in domain form, encoded by ResultEncoder.encodeEventData */
  data: unknown;
  /** composite key → values, including tm.event (and tx.hash, tx.height for Tx) */
  events: Record<string, string[]>;
}

/** Heights of the block store, for the height rules of reference §1.2. */
export interface ChainHeights {
  /** lowest stored height (1 without pruning; 0 when the store is empty) */
  base: bigint;
  /** latest committed height */
  height: bigint;
  /** true while block sync or state sync runs ("latest uncommitted height" is then `height`) */
  catchingUp: boolean;
}

export interface SearchRequest {
  query: Query;
  /** the query as the caller wrote it */
  queryText: string;
  /** page as given (undefined = 1); check it with validatePage once the total is known */
  page: number | undefined;
  /** already clamped to [1, 100] */
  perPage: number;
  orderBy: "asc" | "desc";
}

export interface DialPeersRequest {
  peers: string[];
  persistent: boolean;
  unconditional: boolean;
  private: boolean;
}

export type Unsubscribe = () => void;

export interface RpcContext {
  chainHeights?(): ChainHeights;
  health?(): unknown;
  status?(): unknown;
  netInfo?(): unknown;
  /** block metas from maxHeight down to minHeight; the range is already filtered (≤ 20) */
  blockchain?(minHeight: bigint, maxHeight: bigint): unknown;
  genesis?(): unknown;
  genesisChunked?(chunk: number): unknown;
  block?(height: bigint): unknown;
  blockByHash?(hash: Uint8Array): unknown;
  blockResults?(height: bigint): unknown;
  commit?(height: bigint): unknown;
  /** height is within [base, latest uncommitted height] */
  validators?(height: bigint, page: number | undefined, perPage: number): unknown;
  consensusParams?(height: bigint): unknown;
  /** limit already clamped to [1, 100] */
  unconfirmedTxs?(limit: number): unknown;
  numUnconfirmedTxs?(): unknown;
  tx?(hash: Uint8Array, prove: boolean): unknown;
  txSearch?(request: SearchRequest & { prove: boolean }): unknown;
  blockSearch?(request: SearchRequest): unknown;
  broadcastTxAsync?(tx: Uint8Array): unknown;
  broadcastTxSync?(tx: Uint8Array): unknown;
  /** waits up to timeoutMs for the tx's block; subscription limits were checked by the route */
  broadcastTxCommit?(tx: Uint8Array, timeoutMs: number): unknown;
  checkTx?(tx: Uint8Array): unknown;
  abciInfo?(): unknown;
  abciQuery?(path: string, data: Uint8Array, height: bigint, prove: boolean): unknown;
  /** the typed JSON envelope as parsed ({"type":"tendermint/DuplicateVoteEvidence","value":…}) */
  broadcastEvidence?(evidence: unknown): unknown;
  consensusState?(): unknown;
  dumpConsensusState?(): unknown;
  dialSeeds?(seeds: string[]): unknown;
  dialPeers?(request: DialPeersRequest): unknown;
  unsafeFlushMempool?(): unknown;
  /**
   * Registers a listener for every published event (the node adapts its events$ here, so
   * only streams/ subscribes). The listener must be called synchronously per event and must
   * not throw back into the node.
   */
  subscribeEvents?(listener: (event: RpcEvent) => void): Unsubscribe;
}
