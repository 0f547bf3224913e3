// Where a height's time goes, from the consensus logs of a network's nodes (stopped or running):
// every node's log is folded as `rxbft replay --console` folds it, and each height is cut at the
// inputs whose folds asked for or answered our signatures. Prints the p50 and p90 of each phase
// over the given heights, for the proposer and for the other validators apart, so a change to the
// signing path or the gossip can be read hop by hop (docs/network.md "Where a height goes").
//
//   node --import tsx test/bench/height-phases.ts <home>... [--from H] [--to H]
import { firstMarksByHeight, heightRangeArgs, quantile, type SigningMark } from "./consensus-log-walk.js";

type Mark = SigningMark | "proposalReceived" | "validateAsked" | "commit" | "executed";

/** Consecutive marks: a phase is the time from the first to the second. */
const PHASES: [Mark, Mark, string][] = [
  ["newHeight", "prevoteAsked", "NewHeight timeout → prevote asked (proposal, parts, validation)"],
  ["newHeight", "proposalReceived", "  NewHeight timeout → proposal received"],
  ["newHeight", "blockComplete", "  NewHeight timeout → block parts complete"],
  ["blockComplete", "validateAsked", "  block complete → validation asked"],
  ["validateAsked", "blockValidated", "  validation asked → validated"],
  ["blockValidated", "prevoteAsked", "  validated → prevote asked"],
  ["prevoteAsked", "prevoteSigned", "prevote asked → signed (log sync, signer write)"],
  ["prevoteSigned", "precommitAsked", "our prevote → +2/3 prevotes (others' votes arrive)"],
  ["precommitAsked", "precommitSigned", "precommit asked → signed (log sync, signer write)"],
  ["precommitSigned", "commit", "our precommit → +2/3 precommits (commit)"],
  ["newHeight", "commit", "NewHeight timeout → commit"],
  ["commit", "executed", "commit → block executed"],
];
const PROPOSER_PHASES: [Mark, Mark, string][] = [
  ["newHeight", "proposalSignAsked", "NewHeight timeout → proposal sign asked (reap, build)"],
  ["proposalSignAsked", "proposalSigned", "proposal asked → signed (log sync, signer write)"],
];

/** One signed message's identity across nodes: a vote by validator, type, height and round. */
type SignedKey = string;
const voteKey = (v: { height: bigint; round: number; type: number; validatorIndex: number }): SignedKey =>
  `${v.height}/${v.round}/${v.type}/${v.validatorIndex}`;

/** Per node: when each of our messages was signed, and when each other node's arrived here. */
interface Hops {
  signed: Map<SignedKey, number>;
  received: Map<SignedKey, number>;
}

/**
 * The log stamps whole milliseconds, so a phase under a millisecond reads 0 or 1 at p50; the mean
 * over hundreds of heights resolves it (a stamp's rounding averages out).
 */
function mean(xs: number[]): number {
  return xs.length === 0 ? 0 : xs.reduce((a, b) => a + b, 0) / xs.length;
}

async function marksOf(home: string, hops: Hops): Promise<Map<number, Partial<Record<Mark, number>>>> {
  return firstMarksByHeight<Exclude<Mark, SigningMark>>(home, (step, at, first) => {
    const input = step.input;
    if (input.type === "ProposalSigned")
      hops.signed.set(`${input.proposal.height}/${input.proposal.round}/proposal`, at);
    if (input.type === "ProposalReceived" && input.proposal.round === 0) {
      first("proposalReceived");
      const k = `${input.proposal.height}/${input.proposal.round}/proposal`;
      if (!hops.received.has(k)) hops.received.set(k, at);
    }
    if (input.type === "VoteSigned") hops.signed.set(voteKey(input.vote), at);
    if (input.type === "VoteReceived" && !hops.received.has(voteKey(input.vote)))
      hops.received.set(voteKey(input.vote), at);
    if (input.type === "BlockExecuted") first("executed");
    for (const e of step.effects) {
      if (e.type === "CommitBlock") first("commit");
      if (e.type === "ValidateBlock") first("validateAsked");
    }
  });
}

async function main(): Promise<void> {
  const { homes, from, to } = heightRangeArgs(
    process.argv.slice(2),
    "height-phases.ts <home>... [--from H] [--to H]",
  );
  const others = new Map<string, number[]>();
  const proposers = new Map<string, number[]>();
  const hopsOf: Hops[] = [];
  for (const home of homes) {
    const hops: Hops = { signed: new Map(), received: new Map() };
    hopsOf.push(hops);
    for (const [height, m] of await marksOf(home, hops)) {
      if (height < from || height > to) continue;
      // One round only: a height that went to round 1 is a different story, counted apart.
      const proposer = m.proposalSignAsked !== undefined;
      const into = proposer ? proposers : others;
      for (const [a, b, name] of proposer ? [...PROPOSER_PHASES, ...PHASES] : PHASES) {
        if (m[a] === undefined || m[b] === undefined) continue;
        const list = into.get(name) ?? [];
        list.push(m[b]! - m[a]!);
        into.set(name, list);
      }
    }
  }
  // Cross-node hops (one machine, one clock): a message signed on one node (its signed input's
  // stamp, before it is sent) to its arrival on another (the received input's stamp, after the
  // receive path's verification).
  const hopTable = new Map<string, number[]>();
  const inRange = (k: string) => {
    const h = Number(k.split("/")[0]);
    return h >= from && h <= to;
  };
  for (const [i, a] of hopsOf.entries())
    for (const [j, b] of hopsOf.entries()) {
      if (i === j) continue;
      for (const [k, t] of a.signed) {
        const r = b.received.get(k);
        if (r === undefined || !inRange(k)) continue;
        const kind = k.endsWith("proposal") ? "proposal" : k.split("/")[2] === "1" ? "prevote" : "precommit";
        const name = `${kind} signed on one node → received on another`;
        const list = hopTable.get(name) ?? [];
        list.push(r - t);
        hopTable.set(name, list);
      }
    }
  for (const [title, table] of [
    ["hops between nodes", hopTable],
    ["validators that did not propose", others],
    ["the proposer", proposers],
  ] as [string, Map<string, number[]>][]) {
    console.log(
      `${title} (heights ${from}..${to === Number.MAX_SAFE_INTEGER ? "end" : to}; ms p50 / p90 / mean, n):`,
    );
    for (const [name, xs] of table)
      console.log(
        `  ${name.padEnd(70)} ${quantile(xs, 0.5).toFixed(0).padStart(5)} / ${quantile(xs, 0.9).toFixed(0).padStart(5)} / ${mean(xs).toFixed(2).padStart(6)}  n=${xs.length}`,
      );
  }
}

await main();
