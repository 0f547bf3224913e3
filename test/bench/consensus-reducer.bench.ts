// Consensus reducer figures beside same-run baselines:
// - folding a vote through the whole reducer (vote keeper, upon-rules, events) at 100 validators,
//   beside protobuf-decoding the same vote (work every received vote costs anyway);
// - the vote keeper's immutable addVote alone, beside a mutable Map-and-array tally doing the
//   same counting (the price of immutability);
// - heights per second of four reducers deciding together with instant delivery.
// Rounds alternate between contenders; medians. Bounded in count and time; never fails on time.
// Writes bench-results/consensus-reducer.json.
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import {
  addVote,
  blockKeyOf,
  type ConsensusEffect,
  type ConsensusInput,
  type ConsensusState,
  emptyHeightVotes,
  RoundStep,
  sameBlockId,
  sameBytes,
  weightsOf,
} from "../../src/consensus/index.js";
import { SignedMsgType, Vote } from "../../src/wire/generated/tendermint/types/types.js";
import {
  at,
  chainAfter,
  genesisChain,
  type HeldBlock,
  type InputWithoutTime,
  TestNode,
} from "../unit/consensus-harness.js";

const root = fileURLToPath(new URL("../..", import.meta.url));
const ROUNDS = 7;
const ROUND_MS = 150;
const SIZE = 100;

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

/** Operations per second of `once` (which performs `perCall` operations), within one round. */
function rate(once: () => void, perCall: number): number {
  let count = 0;
  const start = performance.now();
  let elapsed = 0;
  while (elapsed < ROUND_MS && count < 2_000_000) {
    once();
    count += perCall;
    elapsed = performance.now() - start;
  }
  return (count / elapsed) * 1000;
}

// A 100-validator node at the propose step of height 1, and one height's votes for one block.
const node = new TestNode({ own: SIZE - 1, chain: genesisChain(Array.from({ length: SIZE }, () => 10n)) });
node.startRound0();
const block = node.block(0);
node.receiveValidProposal(block, 0);
const start: ConsensusState = node.state;
const inputs: ConsensusInput[] = [];
for (const type of ["prevote", "precommit"] as const) {
  for (let i = 0; i < SIZE - 1; i++) {
    inputs.push({ type: "VoteReceived", time: at(0), vote: node.vote(i, type, 0, block.blockId), from: "p" });
  }
}
const encoded = inputs.map((input) => Vote.encode((input as { vote: Vote }).vote).finish());

const foldHeight = () => {
  let state = start;
  for (const input of inputs) state = node.reducer(state, input).state;
  if (state.step !== RoundStep.Commit) throw new Error("the height did not reach its commit step");
};
const decodeVotes = () => {
  for (const bytes of encoded) Vote.decode(bytes);
};

// The vote keeper alone, and a mutable tally doing the same counting.
const weights = weightsOf(node.validators);
const votes = inputs.slice(0, SIZE - 1).map((input) => (input as { vote: Vote }).vote);
const keeperFold = () => {
  let hv = emptyHeightVotes(1n, weights);
  for (const vote of votes) {
    const outcome = addVote(hv, vote, 0);
    if (outcome.kind === "added") hv = outcome.votes;
  }
};
// Same checks and counting, updated in place (byte comparison of BlockIDs, a key per new block).
const mutableFold = () => {
  const seen: (Vote | undefined)[] = new Array(SIZE).fill(undefined);
  const blocks: { key: string; blockId: Vote["blockId"]; power: bigint }[] = [];
  let sum = 0n;
  let majority: string | undefined;
  for (const vote of votes) {
    if (vote.type !== SignedMsgType.SIGNED_MSG_TYPE_PREVOTE || seen[vote.validatorIndex] !== undefined)
      continue;
    if (!sameBytes(weights.addresses[vote.validatorIndex]!, vote.validatorAddress)) continue;
    seen[vote.validatorIndex] = vote;
    let entry = blocks.find((b) => sameBlockId(b.blockId, vote.blockId));
    if (entry === undefined) {
      entry = { key: blockKeyOf(vote.blockId), blockId: vote.blockId, power: 0n };
      blocks.push(entry);
    }
    entry.power += weights.powers[vote.validatorIndex]!;
    sum += weights.powers[vote.validatorIndex]!;
    if (majority === undefined && entry.power * 3n > weights.totalPower * 2n) majority = entry.key;
  }
  if (sum === 0n || majority === undefined) throw new Error("nothing counted");
};

// Four validators deciding heights with instant delivery and fake signer/mempool/executor.
function heightsPerSecond(): number {
  const nodes = [0, 1, 2, 3].map((own) => new TestNode({ own, chain: genesisChain() }));
  const queue: { i: number; input: InputWithoutTime }[] = [];
  const timers = new Map<number, { at: number; input: InputWithoutTime }>();
  let now = 0;
  const handle = (i: number, effects: ConsensusEffect[]) => {
    for (const e of effects) {
      if (e.type === "ScheduleTimeout") {
        timers.set(i, {
          at: now + e.durationMs,
          input: { type: "TimeoutElapsed", height: e.height, round: e.round, step: e.step },
        });
      } else if (e.type === "SignVote") queue.push({ i, input: { type: "VoteSigned", vote: e.vote } });
      else if (e.type === "SignProposal")
        queue.push({ i, input: { type: "ProposalSigned", proposal: e.proposal } });
      else if (e.type === "ReapProposalBlock") {
        queue.push({
          i,
          input: { type: "ProposalBlockReaped", height: e.height, round: e.round, txs: [], evidence: [] },
        });
      } else if (e.type === "ValidateBlock") {
        queue.push({ i, input: { type: "BlockValidated", height: e.height, blockHash: e.blockId.hash } });
      } else if (
        e.type === "BroadcastProposal" ||
        e.type === "BroadcastBlockPart" ||
        e.type === "BroadcastVote"
      ) {
        const input =
          e.type === "BroadcastProposal"
            ? { type: "ProposalReceived" as const, proposal: e.proposal, from: "n" }
            : e.type === "BroadcastBlockPart"
              ? {
                  type: "BlockPartReceived" as const,
                  height: e.height,
                  round: e.round,
                  part: e.part,
                  from: "n",
                }
              : { type: "VoteReceived" as const, vote: e.vote, from: "n" };
        for (let j = 0; j < 4; j++) if (j !== i) queue.push({ i: j, input });
      } else if (e.type === "CommitBlock") {
        const held: HeldBlock = {
          block: e.block,
          blockId: e.blockId,
          parts: nodes[i]!.state.proposalBlock!.parts,
        };
        queue.push({
          i,
          input: {
            type: "BlockExecuted",
            height: e.height,
            chainState: chainAfter(nodes[i]!.state.chain, held),
          },
        });
      }
    }
  };
  for (const [i, n] of nodes.entries()) handle(i, n.start());
  const began = performance.now();
  let steps = 0;
  while (performance.now() - began < 600 && steps < 200_000 && nodes[0]!.state.height < 200n) {
    steps++;
    const next = queue.shift();
    if (next) {
      nodes[next.i]!.nowMs = now;
      handle(next.i, nodes[next.i]!.feed(next.input as never));
      continue;
    }
    let earliest: number | undefined;
    for (const [i, t] of timers) if (earliest === undefined || t.at < timers.get(earliest)!.at) earliest = i;
    if (earliest === undefined) break;
    const t = timers.get(earliest)!;
    timers.delete(earliest);
    now = Math.max(now, t.at);
    queue.push({ i: earliest, input: t.input });
  }
  return (Number(nodes[0]!.state.height - 1n) / (performance.now() - began)) * 1000;
}

const fold: number[] = [];
const decode: number[] = [];
const keeper: number[] = [];
const mutable: number[] = [];
for (let r = 0; r < ROUNDS; r++) {
  fold.push(rate(foldHeight, inputs.length));
  decode.push(rate(decodeVotes, encoded.length));
  keeper.push(rate(keeperFold, votes.length));
  mutable.push(rate(mutableFold, votes.length));
}
const heights = heightsPerSecond();

const results = {
  validators: SIZE,
  reducerVotesPerSecond: Math.round(median(fold)),
  protobufVoteDecodesPerSecond: Math.round(median(decode)),
  reducerToDecodeCostRatio: median(decode) / median(fold),
  voteKeeperAddsPerSecond: Math.round(median(keeper)),
  mutableTallyAddsPerSecond: Math.round(median(mutable)),
  keeperToMutableCostRatio: median(mutable) / median(keeper),
  fourValidatorHeightsPerSecond: Math.round(heights),
};
console.log(`reducer, VoteReceived at ${SIZE} validators: ${results.reducerVotesPerSecond} votes/s`);
console.log(`baseline, protobuf Vote.decode:            ${results.protobufVoteDecodesPerSecond} votes/s`);
console.log(`  a folded vote costs ${results.reducerToDecodeCostRatio.toFixed(2)}× a decoded one`);
console.log(`vote keeper addVote (immutable):            ${results.voteKeeperAddsPerSecond} votes/s`);
console.log(`baseline, mutable in-place tally:           ${results.mutableTallyAddsPerSecond} votes/s`);
console.log(`  immutability costs ${results.keeperToMutableCostRatio.toFixed(2)}×`);
console.log(
  `four reducers, instant network, timeouts on virtual time: ${results.fourValidatorHeightsPerSecond} heights/s`,
);
mkdirSync(join(root, "bench-results"), { recursive: true });
writeFileSync(join(root, "bench-results", "consensus-reducer.json"), `${JSON.stringify(results, null, 2)}\n`);
