// When a proposal's block parts reach the other validators, from the consensus logs of a network's
// nodes (one machine, one clock): for each height, times from the proposer's ProposalSigned to each
// other node's ProposalReceived, to each part's first arrival (BlockPartReceived; copies are turned
// away before the log, so each index appears once), and to the block complete, and which parts came
// from the proposer and which from a relay. Tells whether a block's parts are held up by the
// proposer's link or by the relays (docs/network.md "(interval)").
//
//   node --import tsx test/bench/part-arrivals.ts <home>... [--from H] [--to H]
import { nodeIdOf, readNodeKey } from "../../src/types/key-file-node-key.js";
import { heightRangeArgs, quantile, walkLoggedSteps } from "./consensus-log-walk.js";

interface HeightMarks {
  proposalSigned?: number;
  newHeight?: number;
  commit?: number;
  proposalReceived?: number;
  complete?: number;
  parts: { index: number; at: number; from: string }[];
}

async function marksOf(home: string): Promise<{ id: string; byHeight: Map<number, HeightMarks> }> {
  const byHeight = new Map<number, HeightMarks>();
  const paths = await walkLoggedSteps(home, (step, at) => {
    const input = step.input;
    const height = Number(step.before.height);
    const m = byHeight.get(height) ?? { parts: [] };
    byHeight.set(height, m);
    if (input.type === "ProposalSigned" && input.proposal.round === 0) m.proposalSigned ??= at;
    if (input.type === "TimeoutElapsed" && step.before.step !== step.after.step && step.after.round === 0)
      m.newHeight ??= at;
    for (const e of step.effects) if (e.type === "CommitBlock") m.commit ??= at;
    if (input.type === "ProposalReceived" && input.proposal.round === 0) m.proposalReceived ??= at;
    if (input.type === "BlockPartReceived" && input.round === 0 && input.height === step.before.height)
      m.parts.push({ index: input.part.index, at, from: input.from });
    if (
      step.before.proposalBlock === undefined &&
      step.after.proposalBlock !== undefined &&
      step.after.round === 0
    )
      m.complete ??= at;
  });
  return { id: nodeIdOf(readNodeKey(paths.nodeKeyFile).publicKey), byHeight };
}

async function main(): Promise<void> {
  const { homes, from, to } = heightRangeArgs(
    process.argv.slice(2),
    "part-arrivals.ts <home>... [--from H] [--to H]",
  );
  const nodes = await Promise.all(homes.map(marksOf));
  const rows: Record<string, number[]> = {};
  const add = (name: string, x: number) => {
    rows[name] ??= [];
    rows[name].push(x);
  };
  for (const proposer of nodes)
    for (const [height, pm] of proposer.byHeight) {
      if (height < from || height > to || pm.proposalSigned === undefined) continue;
      const t0 = pm.proposalSigned;
      for (const node of nodes) {
        const c = node.byHeight.get(height - 1)?.commit;
        const n = node.byHeight.get(height)?.newHeight;
        if (c !== undefined && n !== undefined) add("last commit → NewHeight (all nodes)", n - c);
        const pn = proposer.byHeight.get(height)?.newHeight;
        if (pn !== undefined && n !== undefined && node !== proposer)
          add("proposer's NewHeight → ours", n - pn);
        if (node === proposer) continue;
        const m = node.byHeight.get(height);
        if (m === undefined || m.complete === undefined || m.proposalReceived === undefined) continue;
        add("proposal signed → received", m.proposalReceived - t0);
        const parts = m.parts.slice().sort((a, b) => a.at - b.at);
        if (parts.length === 0) continue;
        add("proposal signed → first part", parts[0]!.at - t0);
        add("proposal signed → block complete", m.complete - t0);
        add("first part → block complete", m.complete - parts[0]!.at);
        add("parts in the block", parts.length);
        add("parts first from a relay", parts.filter((x) => x.from !== proposer.id).length);
        for (let i = 1; i < parts.length; i++)
          add("gap between successive parts", parts[i]!.at - parts[i - 1]!.at);
      }
    }
  console.log(
    `part arrivals (heights ${from}..${to === Number.MAX_SAFE_INTEGER ? "end" : to}; p50 / p90 / mean, n):`,
  );
  for (const [name, xs] of Object.entries(rows)) {
    const mean = xs.reduce((a, b) => a + b, 0) / xs.length;
    console.log(
      `  ${name.padEnd(40)} ${quantile(xs, 0.5).toFixed(0).padStart(5)} / ${quantile(xs, 0.9).toFixed(0).padStart(5)} / ${mean.toFixed(2).padStart(7)}  n=${xs.length}`,
    );
  }
}

await main();
