// Where one node's signatures wait, split by an strace of its threads' disk syncs: for each of our
// signatures (the fold that asked for it → the fold of its answer, both stamped in the consensus
// log), the time until the log's fdatasync starts (the rest of the asking turn, the log's buffered
// write, the request to the sync thread), the fdatasync itself (the disk), and the time from its end
// to the answer's stamp (the main thread's wait for a turn to take the answer, then its stamp).
// The strace is of the node's threads other than the main one (so the main thread runs untraced):
//
//   strace -ttt -T -e trace=fdatasync,fsync -o <file> -p <tid> -p <tid> ...
//   node --import tsx test/bench/signature-waits.ts <home> <strace file> [--from H] [--to H]
//
// Beside network.bench.ts (NETB_PHASES=1): attach the strace to node 1's threads (/proc/<pid>/task
// less the pid) a few seconds after the nodes start, and copy that home's config/ and data/cs.wal/
// once the bench prints "where the loaded heights" (its homes are removed when it ends).
//
// The log's sync thread is found as the thread whose fdatasyncs most often start inside a
// signature's window; the other threads' syncs (the stores' on node's pool) are counted as the
// disk work that overlapped the window.
import { readFileSync } from "node:fs";
import { SignedMsgType } from "../../src/wire/generated/tendermint/types/types.js";
import { heightRangeArgs, quantile, walkLoggedSteps } from "./consensus-log-walk.js";

interface Sync {
  tid: number;
  call: string;
  startMs: number;
  endMs: number;
}

interface Signature {
  what: "proposal" | "prevote" | "precommit";
  height: number;
  askedMs: number;
  signedMs: number;
}

/** strace -ttt -T lines, with `[pid N]` prefixes and unfinished/resumed pairs when calls overlap. */
function parseStrace(text: string): Sync[] {
  const out: Sync[] = [];
  const open = new Map<number, { call: string; startMs: number }>();
  const line = /^(?:\[pid\s+(\d+)\]\s+|(\d+)\s+)?(\d+\.\d+)\s+(.*)$/;
  for (const raw of text.split("\n")) {
    const m = line.exec(raw);
    if (m === null) continue;
    const tid = Number(m[1] ?? m[2] ?? 0);
    const atMs = Number(m[3]) * 1000;
    const rest = m[4]!;
    const dur = /<(\d+\.\d+)>\s*$/.exec(rest);
    const resumed = /^<\.\.\. (\w+) resumed>/.exec(rest);
    if (resumed !== null) {
      const o = open.get(tid);
      open.delete(tid);
      if (o !== undefined && dur !== null)
        out.push({ tid, call: o.call, startMs: o.startMs, endMs: o.startMs + Number(dur[1]) * 1000 });
      continue;
    }
    const call = /^(\w+)\(/.exec(rest)?.[1];
    if (call === undefined) continue;
    if (rest.includes("<unfinished ...>")) open.set(tid, { call, startMs: atMs });
    else if (dur !== null) out.push({ tid, call, startMs: atMs, endMs: atMs + Number(dur[1]) * 1000 });
  }
  return out.sort((a, b) => a.startMs - b.startMs);
}

async function signaturesOf(home: string, from: number, to: number): Promise<Signature[]> {
  const asked = new Map<string, number>();
  const out: Signature[] = [];
  await walkLoggedSteps(home, (step, at) => {
    const input = step.input;
    for (const e of step.effects) {
      if (e.type === "SignProposal") asked.set(`${e.proposal.height}/${e.proposal.round}/p`, at);
      if (e.type === "SignVote") asked.set(`${e.vote.height}/${e.vote.round}/${e.vote.type}`, at);
    }
    let key: string | undefined;
    let what: Signature["what"] = "proposal";
    let height = 0;
    if (input.type === "ProposalSigned") {
      key = `${input.proposal.height}/${input.proposal.round}/p`;
      height = Number(input.proposal.height);
    } else if (input.type === "VoteSigned") {
      key = `${input.vote.height}/${input.vote.round}/${input.vote.type}`;
      what = input.vote.type === SignedMsgType.SIGNED_MSG_TYPE_PREVOTE ? "prevote" : "precommit";
      height = Number(input.vote.height);
    }
    if (key === undefined || height < from || height > to) return;
    const a = asked.get(key);
    if (a !== undefined) out.push({ what, height, askedMs: a, signedMs: at });
  });
  return out;
}

async function main(): Promise<void> {
  const args = process.argv.slice(2);
  const { homes, from, to } = heightRangeArgs(
    args,
    "signature-waits.ts <home> <strace file> [--from H] [--to H]",
  );
  const [home, straceFile] = homes;
  if (home === undefined || straceFile === undefined)
    throw new Error("usage: signature-waits.ts <home> <strace file> [--from H] [--to H]");
  const syncs = parseStrace(readFileSync(straceFile, "utf8"));
  const sigs = await signaturesOf(home, from, to);
  // The log's sync thread: most fdatasync starts inside signature windows.
  const inside = new Map<number, number>();
  for (const s of syncs) {
    if (s.call !== "fdatasync") continue;
    if (sigs.some((g) => s.startMs >= g.askedMs - 1 && s.startMs <= g.signedMs + 1))
      inside.set(s.tid, (inside.get(s.tid) ?? 0) + 1);
  }
  const logTid = [...inside].sort((a, b) => b[1] - a[1])[0]?.[0];
  console.log(
    `${sigs.length} signatures, ${syncs.length} syncs traced; the log's sync thread: ${logTid ?? "not found"} (fdatasyncs in windows per thread: ${[...inside].map(([t, n]) => `${t}:${n}`).join(" ")})`,
  );
  const rows = new Map<string, number[]>();
  const add = (name: string, x: number) => {
    const list = rows.get(name) ?? [];
    list.push(x);
    rows.set(name, list);
  };
  let unmatched = 0;
  for (const g of sigs) {
    // The stamps are whole ms: a sync that starts in the asking ms belongs to it.
    const sync = syncs.find(
      (s) =>
        s.tid === logTid &&
        s.call === "fdatasync" &&
        s.startMs >= g.askedMs - 1 &&
        s.startMs <= g.signedMs + 1,
    );
    if (sync === undefined) {
      unmatched++;
      continue;
    }
    const others = syncs.filter((s) => s.tid !== logTid && s.startMs < sync.endMs && s.endMs > sync.startMs);
    add(`${g.what}: asked → signed`, g.signedMs - g.askedMs);
    add(
      `${g.what}:   asked → log's fdatasync starts (turn's rest, log write, request)`,
      sync.startMs - g.askedMs,
    );
    add(`${g.what}:   log's fdatasync (disk)`, sync.endMs - sync.startMs);
    add(`${g.what}:   fdatasync ends → answer stamped (main thread's turn)`, g.signedMs - sync.endMs);
    add(`${g.what}:   other threads' syncs overlapping it (count)`, others.length);
  }
  console.log(`signatures without a traced sync of the log: ${unmatched}`);
  console.log(`heights ${from}..${to === Number.MAX_SAFE_INTEGER ? "end" : to}; ms p50 / p90 / mean, n:`);
  for (const [name, xs] of [...rows].sort((a, b) => a[0].localeCompare(b[0]))) {
    const mean = xs.reduce((a, b) => a + b, 0) / xs.length;
    console.log(
      `  ${name.padEnd(80)} ${quantile(xs, 0.5).toFixed(1).padStart(6)} / ${quantile(xs, 0.9).toFixed(1).padStart(6)} / ${mean.toFixed(1).padStart(6)}  n=${xs.length}`,
    );
  }
}

await main();
