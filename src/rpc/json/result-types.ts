// The domain form of each route's result: what an RPC context returns and the encoders read.
// camelCase of reference §1.4's keys; bytes as Uint8Array (a string where noted is taken as
// already-hex text), int64 as bigint, times as Timestamp, protobuf-generated messages as they
// are. Both result forms are written from these same values.

import type { ValidatorKeys } from "../../rpc/json/json-block.js";
import type { PubKeyInput } from "../../rpc/json/json-keys.js";
import type { GenesisDoc } from "../../types/genesis.js";
import type { Timestamp } from "../../types/time.js";
import type {
  ConsensusParams as AbciConsensusParams,
  Event,
  ResponseCheckTx,
  ResponseDeliverTx,
  ResponseInfo,
  ResponseQuery,
  TxResult,
  ValidatorUpdate,
} from "../../wire/generated/tendermint/abci/types.js";
import type { Block } from "../../wire/generated/tendermint/types/block.js";
import type { ConsensusParams } from "../../wire/generated/tendermint/types/params.js";
import type {
  BlockID,
  BlockMeta,
  Commit,
  Header,
  TxProof,
  Vote,
} from "../../wire/generated/tendermint/types/types.js";
import type { Validator } from "../../wire/generated/tendermint/types/validator.js";

/** Bytes, or text that is already upper-case hex. */
export type HexInput = Uint8Array | string;

export interface NodeInfoResult {
  protocolVersion: { p2p: bigint; block: bigint; app: bigint };
  id: string;
  listenAddr: string;
  network: string;
  version: string;
  /** HexBytes of the channel ids ("40202122233038606100") */
  channels: HexInput;
  moniker: string;
  other: { txIndex: string; rpcAddress: string };
}

export interface SyncInfoResult {
  latestBlockHash: HexInput;
  latestAppHash: HexInput;
  latestBlockHeight: bigint;
  latestBlockTime: Timestamp;
  earliestBlockHash?: HexInput;
  earliestAppHash?: HexInput;
  earliestBlockHeight?: bigint;
  earliestBlockTime?: Timestamp;
  catchingUp: boolean;
}

export interface ValidatorInfoResult {
  address: HexInput;
  pubKey: PubKeyInput | undefined;
  votingPower: bigint;
}

export interface StatusResult {
  nodeInfo: NodeInfoResult;
  syncInfo: SyncInfoResult;
  validatorInfo: ValidatorInfoResult | undefined;
}

export interface PeerResult {
  nodeInfo: NodeInfoResult;
  isOutbound: boolean;
  /** host:port the peer was reached at (for the seed form's url) */
  remoteIp: string;
  remotePort?: number;
  connectionStatus?: unknown;
}

export interface NetInfoResult {
  listening: boolean;
  listeners: string[];
  nPeers: number;
  peers: PeerResult[];
}

export interface BlockchainResult {
  lastHeight: bigint;
  blockMetas: BlockMeta[];
}

export interface GenesisResult {
  genesis: GenesisDoc;
}

export interface GenesisChunkResult {
  chunk: number;
  total: number;
  /** the chunk's raw bytes (written as base64) */
  data: Uint8Array;
}

export interface BlockResult {
  blockId: BlockID | undefined;
  block: Block | undefined;
  /** public keys of validators named by the block's evidence (the seed form shows them) */
  evidenceKeys?: ValidatorKeys;
}

export interface BlockResultsResult {
  height: bigint;
  txsResults: ResponseDeliverTx[];
  beginBlockEvents: Event[];
  endBlockEvents: Event[];
  validatorUpdates: ValidatorUpdate[];
  consensusParamUpdates: AbciConsensusParams | undefined;
}

export interface CommitResult {
  signedHeader: { header: Header; commit: Commit };
  canonical: boolean;
}

export interface ValidatorsResult {
  blockHeight: bigint;
  validators: Validator[];
  count: number;
  total: number;
}

export interface ConsensusParamsResult {
  blockHeight: bigint;
  consensusParams: ConsensusParams;
}

export interface UnconfirmedTxsResult {
  nTxs: number;
  total: number;
  totalBytes: number | bigint;
  /** null for num_unconfirmed_txs */
  txs: Uint8Array[] | null;
}

export interface TxResultView {
  hash: HexInput;
  height: bigint;
  index: number;
  txResult: Partial<ResponseDeliverTx>;
  tx: Uint8Array;
  proof?: TxProof;
}

export interface TxSearchResultView {
  txs: TxResultView[];
  totalCount: number;
}

export interface BlockSearchResultView {
  blocks: BlockResult[];
  totalCount: number;
}

export interface BroadcastTxResult {
  code: number;
  data: HexInput;
  log: string;
  codespace: string;
  hash: HexInput;
}

export interface BroadcastTxCommitResult {
  checkTx: Partial<ResponseCheckTx>;
  deliverTx: Partial<ResponseDeliverTx>;
  hash: HexInput;
  height: bigint;
}

export interface AbciInfoResult {
  response: Partial<ResponseInfo>;
}

export interface AbciQueryResult {
  response: Partial<ResponseQuery>;
}

export interface BroadcastEvidenceResult {
  hash: Uint8Array;
}

/** One round's votes as dump_consensus_state shows them. */
export interface RoundVotesView {
  round: number;
  prevotes: (Vote | undefined)[];
  prevotesBitArray: string;
  precommits: (Vote | undefined)[];
  precommitsBitArray: string;
}

export interface RoundStateSummary {
  height: bigint;
  round: number;
  step: number;
  startTime: Timestamp;
  proposalBlockHash: Uint8Array;
  lockedBlockHash: Uint8Array;
  validBlockHash: Uint8Array;
  heightVoteSet: RoundVotesView[];
  proposer: { address: Uint8Array; index: number };
}

export interface ConsensusStateResult {
  roundState: RoundStateSummary;
}

export interface RoundStateFull {
  height: bigint;
  round: number;
  step: number;
  startTime: Timestamp;
  commitTime: Timestamp | undefined;
  validators: { validators: Validator[]; proposer: Validator | undefined };
  proposal: unknown;
  proposalBlock: Block | undefined;
  lockedRound: number;
  lockedBlock: Block | undefined;
  validRound: number;
  validBlock: Block | undefined;
  votes: RoundVotesView[];
  commitRound: number;
  lastCommit: RoundVotesView | undefined;
  lastValidators: { validators: Validator[]; proposer: Validator | undefined };
  triggeredTimeoutPrecommit: boolean;
}

export interface DumpConsensusStateResult {
  roundState: RoundStateFull;
  peers: { nodeAddress: string; peerState: unknown }[];
}

/** The TxResult of a Tx event and of the indexer. */
export type { TxResult };
