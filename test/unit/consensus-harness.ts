// Test harness for the consensus reducer: a 4-validator chain at genesis, a node that folds inputs
// at a controllable clock, and builders for other validators' votes, proposals and parts.
// Signatures are not checked by the reducer (they are verified before the log), so votes carry
// placeholder signatures here.
import {
  buildProposalBlock,
  type CommitBlock,
  type ConsensusConfig,
  type ConsensusEffect,
  type ConsensusInput,
  type ConsensusState,
  createConsensusReducer,
  createDefaultConsensusRules,
  DEFAULT_CONSENSUS_CONFIG,
  type HeldBlock,
  initialConsensusState,
} from "../../src/consensus/index.js";
import { addressOf } from "../../src/crypto/hash.js";
import { ValidatorSet } from "../../src/types/validator-set.js";
import type { Timestamp } from "../../src/wire/generated/google/protobuf/timestamp.js";
import type { State as ChainState } from "../../src/wire/generated/tendermint/state/types.js";
import type { ConsensusParams } from "../../src/wire/generated/tendermint/types/params.js";
import {
  type BlockID,
  type Commit,
  type Proposal,
  SignedMsgType,
  type Vote,
} from "../../src/wire/generated/tendermint/types/types.js";

export const GENESIS_SECONDS = 1_700_000_000n;
export const NIL: BlockID = { hash: new Uint8Array(0), partSetHeader: { total: 0, hash: new Uint8Array(0) } };

export function defaultParams(): ConsensusParams {
  return {
    block: { maxBytes: 22020096n, maxGas: -1n, timeIotaMs: 1000n },
    evidence: {
      maxAgeNumBlocks: 100000n,
      maxAgeDuration: { seconds: 172800n, nanos: 0 },
      maxBytes: 1048576n,
    },
    validator: { pubKeyTypes: ["ed25519"] },
    version: { appVersion: 0n },
  };
}

/** A genesis chain state; `publicKeys[i]` (default: placeholder bytes) is validator i's key. */
export function genesisChain(
  powers: readonly bigint[] = [10n, 10n, 10n, 10n],
  publicKeys: readonly Uint8Array[] = powers.map((_, i) => new Uint8Array(32).fill(i + 1)),
): ChainState {
  const set = ValidatorSet.create(
    powers.map((votingPower, i) => ({
      pubKey: { sum: { $case: "ed25519", ed25519: publicKeys[i]! } },
      votingPower,
    })),
  );
  return {
    version: { consensus: { block: 11n, app: 0n }, software: "" },
    chainId: "consensus-test",
    initialHeight: 1n,
    lastBlockHeight: 0n,
    lastBlockId: NIL,
    lastBlockTime: { seconds: GENESIS_SECONDS, nanos: 0 },
    nextValidators: set.copyIncrementProposerPriority(1).toProto(),
    validators: set.toProto(),
    lastValidators: { validators: [], proposer: undefined, totalVotingPower: 0n },
    lastHeightValidatorsChanged: 1n,
    consensusParams: defaultParams(),
    lastHeightConsensusParamsChanged: 1n,
    lastResultsHash: new Uint8Array(0),
    appHash: new Uint8Array(0),
  };
}

/** The chain state after `block` (committed as `blockId`) ran, with an app that keeps its hash. */
export function chainAfter(chain: ChainState, held: HeldBlock, appHash = chain.appHash): ChainState {
  const next = ValidatorSet.fromProto(chain.nextValidators!);
  return {
    ...chain,
    lastBlockHeight: held.block.header.height,
    lastBlockId: held.blockId,
    lastBlockTime: held.block.header.time,
    lastValidators: chain.validators,
    validators: chain.nextValidators,
    nextValidators: next.copyIncrementProposerPriority(1).toProto(),
    appHash,
  };
}

export function at(ms: number): Timestamp {
  const nanos = BigInt(ms) * 1_000_000n;
  return { seconds: GENESIS_SECONDS + nanos / 1_000_000_000n, nanos: Number(nanos % 1_000_000_000n) };
}

type Untimed<T> = T extends { time: Timestamp } ? Omit<T, "time"> : never;
export type InputWithoutTime = Untimed<ConsensusInput>;

export interface NodeOptions {
  /** Index (in validator-set order) of the validator this node is; undefined: not a validator. */
  own?: number;
  config?: Partial<ConsensusConfig>;
  chain?: ChainState;
}

export class TestNode {
  state: ConsensusState;
  readonly chain: ChainState;
  readonly reducer = createConsensusReducer(createDefaultConsensusRules());
  /** Milliseconds after genesis time; stamped on every input. */
  nowMs = 0;
  /** Every input folded, stamped, in order (for replay tests). */
  readonly log: ConsensusInput[] = [];

  constructor(options: NodeOptions = {}) {
    this.chain = options.chain ?? genesisChain();
    const own =
      options.own === undefined ? undefined : this.chain.validators!.validators[options.own]!.address;
    this.state = initialConsensusState({
      config: { ...DEFAULT_CONSENSUS_CONFIG, ...options.config },
      ...(own === undefined ? {} : { ownAddress: own }),
    });
  }

  feed(input: InputWithoutTime): ConsensusEffect[] {
    const stamped = { ...input, time: at(this.nowMs) } as ConsensusInput;
    this.log.push(stamped);
    const { state, effects } = this.reducer(this.state, stamped);
    this.state = state;
    return [...effects];
  }

  start(lastCommit?: Commit, lastBlockAppHash = new Uint8Array(0)): ConsensusEffect[] {
    return this.feed({
      type: "ConsensusStarted",
      chainState: this.state.started ? this.state.chain : this.chain,
      lastCommit,
      lastBlockAppHash,
    });
  }

  /** Starts and lets timeout_commit elapse: round 0 of the first height begins. */
  startRound0(): ConsensusEffect[] {
    this.start();
    return this.feed({ type: "TimeoutElapsed", height: this.state.height, round: 0, step: 1 });
  }

  /** The chain state the node is at (the genesis one before it starts). */
  get currentChain(): ChainState {
    return this.state.started ? this.state.chain : this.chain;
  }

  /** The height the node is at (the initial height before it starts). */
  get height(): bigint {
    return this.state.started ? this.state.height : this.chain.initialHeight;
  }

  get validators() {
    return this.currentChain.validators!.validators;
  }

  indexOf(address: Uint8Array): number {
    return this.validators.findIndex(
      (v) => Buffer.compare(Buffer.from(v.address), Buffer.from(address)) === 0,
    );
  }

  vote(index: number, type: "prevote" | "precommit", round: number, blockId: BlockID, ms = this.nowMs): Vote {
    return {
      type:
        type === "prevote" ? SignedMsgType.SIGNED_MSG_TYPE_PREVOTE : SignedMsgType.SIGNED_MSG_TYPE_PRECOMMIT,
      height: this.height,
      round,
      blockId,
      timestamp: at(ms),
      validatorAddress: this.validators[index]!.address,
      validatorIndex: index,
      signature: new Uint8Array(64).fill(index + 1),
    };
  }

  /** Feeds votes from the validators at `indices`. */
  votes(
    indices: number[],
    type: "prevote" | "precommit",
    round: number,
    blockId: BlockID,
  ): ConsensusEffect[] {
    return indices.flatMap((i) =>
      this.feed({ type: "VoteReceived", vote: this.vote(i, type, round, blockId), from: `peer${i}` }),
    );
  }

  /** A block proposed by the validator at `proposerIndex` with `txs`, built from the node's chain state. */
  block(
    proposerIndex: number,
    txs: Uint8Array[] = [new Uint8Array([1, 2, 3])],
    lastCommit?: Commit,
  ): HeldBlock {
    const held = buildProposalBlock({
      chain: this.currentChain,
      height: this.height,
      proposerAddress: this.validators[proposerIndex]!.address,
      txs,
      evidence: [],
      lastCommit,
    });
    if (held === undefined) throw new Error("no block could be built");
    return held;
  }

  proposal(held: HeldBlock, round: number, polRound = -1): Proposal {
    return {
      type: SignedMsgType.SIGNED_MSG_TYPE_PROPOSAL,
      height: this.height,
      round,
      polRound,
      blockId: held.blockId,
      timestamp: at(this.nowMs),
      signature: new Uint8Array(64).fill(9),
    };
  }

  /** Feeds the proposal and all its parts; returns the effects of all of them. */
  receiveProposal(held: HeldBlock, round: number, polRound = -1): ConsensusEffect[] {
    const effects = this.feed({
      type: "ProposalReceived",
      proposal: this.proposal(held, round, polRound),
      from: "peerP",
    });
    for (const part of held.parts.parts) {
      effects.push(
        ...this.feed({
          type: "BlockPartReceived",
          height: this.state.height,
          round,
          part: part!,
          from: "peerP",
        }),
      );
    }
    return effects;
  }

  /** Proposal, parts and a positive validation answer. */
  receiveValidProposal(held: HeldBlock, round: number, polRound = -1): ConsensusEffect[] {
    const effects = this.receiveProposal(held, round, polRound);
    effects.push(
      ...this.feed({ type: "BlockValidated", height: this.state.height, blockHash: held.blockId.hash }),
    );
    return effects;
  }

  /** Answers every SignVote in `effects` with its VoteSigned; returns the effects of those. */
  signVotes(effects: readonly ConsensusEffect[]): ConsensusEffect[] {
    return effects
      .filter((e) => e.type === "SignVote")
      .flatMap((e) =>
        this.feed({ type: "VoteSigned", vote: { ...e.vote, signature: new Uint8Array(64).fill(7) } }),
      );
  }
}

/** The effects without PublishEvent, as `type` names: the commands a step issued. */
export function commands(effects: readonly ConsensusEffect[]): string[] {
  return effects.filter((e) => e.type !== "PublishEvent").map((e) => e.type);
}

export function events(effects: readonly ConsensusEffect[]): string[] {
  return effects.flatMap((e) => (e.type === "PublishEvent" ? [e.name] : []));
}

export function only<T extends ConsensusEffect["type"]>(
  effects: readonly ConsensusEffect[],
  type: T,
): Extract<ConsensusEffect, { type: T }>[] {
  return effects.filter((e): e is Extract<ConsensusEffect, { type: T }> => e.type === type);
}

/** The vote a SignVote effect asks for, as "prevote:<hash hex prefix>|nil". */
export function signed(effects: readonly ConsensusEffect[]): string[] {
  return only(effects, "SignVote").map(
    (e) =>
      `${e.vote.type === SignedMsgType.SIGNED_MSG_TYPE_PREVOTE ? "prevote" : "precommit"}:${
        e.vote.blockId.hash.length === 0
          ? "nil"
          : Buffer.from(e.vote.blockId.hash).toString("hex").slice(0, 8)
      }`,
  );
}

/** The commit effect for a held block at `height` (round 0, no parts, no seen commit): what the
 * commit handler's tests feed it. */
export function commitBlockOf(height: bigint, held: HeldBlock): CommitBlock {
  return {
    type: "CommitBlock",
    height,
    round: 0,
    blockId: held.blockId,
    block: held.block,
    partSetHeader: held.blockId.partSetHeader,
    parts: [],
    seenCommit: {} as never,
  };
}

export function short(held: HeldBlock): string {
  return Buffer.from(held.blockId.hash).toString("hex").slice(0, 8);
}

export type { HeldBlock };
export { addressOf };
