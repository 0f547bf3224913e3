// Whether a complete proposal block from someone else may be the next block of the chain: v0.34's
// validateBlock in the parts that need no app (reference §7.9). One rule, two runners: the node
// (signatures on the worker pool, history read from the stores) and the simulation (a memoised
// verifier and history in memory) both call `proposalBlockProblem` with their ports; it answers
// synchronously when the ports do.
//
// The checks, in order: the block's own structure (validateBlock), the block protocol version and
// the app version of the state, chain id, height, BFT time (genesis time at the initial height,
// else the weighted median of the LastCommit), last block ID, the hashes the state fixes (app,
// last results, validators, next validators, consensus params), the proposer being in the set,
// no LastCommit signatures at the initial height and a LastCommit with +2/3 of the last set's
// power after it, and the block's evidence (each item verified against the validator set and
// block time of its height, none committed before, all within the evidence max_bytes).

import { blockTimeProblem } from "../consensus/proposal-block.js";
import type { SignatureVerifier } from "../consensus/verify-input.js";
import type { VerifyItem } from "../crypto/verify-item.js";
import {
  checkBlockEvidence,
  type EvidenceHistory,
  type EvidencePoolState,
  evidenceHistoryHeights,
} from "../evidence/index.js";
import { BLOCK_PROTOCOL_VERSION } from "../types/block-limits.js";
import { blockIdsEqual, verifyCommitThrough } from "../types/commit-verification.js";
import { andThen, type MaybePromise, recover } from "../types/maybe-async.js";
import { validateBlock } from "../types/validate-block.js";
import { ValidatorSet } from "../types/validator-set.js";
import type { State as ChainState } from "../wire/generated/tendermint/state/types.js";
import type { Block } from "../wire/generated/tendermint/types/block.js";
import { consensusParamsHash } from "../wire/hashes.js";

/** What the rule needs from outside, answered now (simulation) or later (node). */
export interface ProposalBlockPorts {
  /** Checks ed25519 signatures; answer i belongs to item i. */
  checkSignatures(items: readonly VerifyItem[]): MaybePromise<boolean[]>;
  /** The evidence pool's state: its committed list refuses evidence committed before. */
  evidencePool(): EvidencePoolState;
  /** Block times, validator sets and signed headers at these heights (of the block's evidence). */
  evidenceHistory(heights: readonly bigint[]): MaybePromise<EvidenceHistory>;
  /** One signature of an evidence vote. */
  verifyEvidenceVote: SignatureVerifier;
}

const same = (a: Uint8Array | undefined, b: Uint8Array | undefined) =>
  Buffer.from(a ?? new Uint8Array(0)).equals(Buffer.from(b ?? new Uint8Array(0)));

const hex = (b: Uint8Array | undefined) =>
  Buffer.from(b ?? [])
    .toString("hex")
    .toUpperCase();

// proposalHeaderProblem's answers per (chain state, block) object pair. Both are immutable data (the
// reducers' purity rests on it), so the answer for a pair never changes: the memo of a pure
// function, holding nothing alive. It answers when the same block object is checked against the
// same chain state again: in a simulation the validators share both (one decoded block per part
// set, types/part-set-block.ts; one chain state per executed block), so one check serves them all.
const headerProblems = new WeakMap<ChainState, WeakMap<Block, { readonly problem: string | undefined }>>();

/** The checks that need nothing but the chain state and the block (everything but signatures and evidence). */
export function proposalHeaderProblem(chain: ChainState, block: Block): string | undefined {
  let perBlock = headerProblems.get(chain);
  if (perBlock === undefined) {
    perBlock = new WeakMap();
    headerProblems.set(chain, perBlock);
  }
  let answer = perBlock.get(block);
  if (answer === undefined) {
    answer = { problem: headerProblemOf(chain, block) };
    perBlock.set(block, answer);
  }
  return answer.problem;
}

function headerProblemOf(chain: ChainState, block: Block): string | undefined {
  try {
    validateBlock(block);
  } catch (error) {
    return (error as Error).message;
  }
  const h = block.header;
  const expected = chain.lastBlockHeight === 0n ? chain.initialHeight : chain.lastBlockHeight + 1n;
  const appVersion = chain.version?.consensus?.app ?? 0n;
  if (h.version?.block !== BLOCK_PROTOCOL_VERSION)
    return `wrong block version ${h.version?.block}, expected ${BLOCK_PROTOCOL_VERSION}`;
  if (h.version.app !== appVersion) return `wrong app version ${h.version.app}, expected ${appVersion}`;
  if (h.chainId !== chain.chainId) return `wrong chain id ${h.chainId}, expected ${chain.chainId}`;
  if (h.height !== expected) return `wrong height ${h.height}, expected ${expected}`;
  const timeProblem = blockTimeProblem(chain, block);
  if (timeProblem !== undefined) return `wrong block time: ${timeProblem}`;
  if (!same(h.lastBlockId?.hash, chain.lastBlockId?.hash)) return "wrong last block id";
  if (h.lastBlockId && chain.lastBlockId && !blockIdsEqual(h.lastBlockId, chain.lastBlockId))
    return "wrong last block id (part set header)";
  if (!same(h.appHash, chain.appHash)) return "wrong app hash";
  if (!same(h.lastResultsHash, chain.lastResultsHash)) return "wrong last results hash";
  const validators = ValidatorSet.fromProto(chain.validators!);
  if (!same(h.validatorsHash, validators.hash())) return "wrong validators hash";
  if (!same(h.nextValidatorsHash, ValidatorSet.fromProto(chain.nextValidators!).hash()))
    return "wrong next validators hash";
  if (!same(h.consensusHash, consensusParamsHash(chain.consensusParams)))
    return "wrong consensus params hash";
  if (!validators.hasAddress(h.proposerAddress ?? new Uint8Array(0)))
    return `proposer address ${hex(h.proposerAddress)} is not a validator`;
  if (h.height === chain.initialHeight && (block.lastCommit?.signatures.length ?? 0) > 0)
    return "the initial block has LastCommit signatures";
  if (h.height > chain.initialHeight && block.lastCommit === undefined) return "missing last commit";
  return undefined;
}

/** What is wrong with `block` as the next block of `chain`, or undefined: now when the ports answer now. */
export function proposalBlockProblem(
  chain: ChainState,
  block: Block,
  ports: ProposalBlockPorts,
): MaybePromise<string | undefined> {
  const header = proposalHeaderProblem(chain, block);
  if (header !== undefined) return header;
  const lastCommit =
    block.header.height > chain.initialHeight
      ? recover(
          () =>
            andThen(
              verifyCommitThrough(
                chain.chainId,
                ValidatorSet.fromProto(chain.lastValidators!),
                chain.lastBlockId!,
                chain.lastBlockHeight,
                block.lastCommit!,
                (items) => ports.checkSignatures(items),
              ),
              (): string | undefined => undefined,
            ),
          // CommitVerificationError says "invalid commit: …"; here it is the LastCommit.
          (error) => `invalid last commit: ${(error as Error).message.replace(/^invalid commit: /, "")}`,
        )
      : undefined;
  return andThen(lastCommit, (problem) => problem ?? evidenceProblem(chain, block, ports));
}

function evidenceProblem(
  chain: ChainState,
  block: Block,
  ports: ProposalBlockPorts,
): MaybePromise<string | undefined> {
  const items = block.evidence?.evidence ?? [];
  if (items.length === 0) return undefined;
  const heights = [...new Set(items.flatMap((e) => evidenceHistoryHeights(e, chain)))];
  return andThen(ports.evidenceHistory(heights), (history) => {
    const problem = checkBlockEvidence(ports.evidencePool(), items, chain, history, ports.verifyEvidenceVote);
    return problem === undefined ? undefined : `invalid evidence: ${problem}`;
  });
}
