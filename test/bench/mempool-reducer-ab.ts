// The mempool reducer's CPU per admitted tx, this clone's sources against another's (a base),
// alternated child by child: the isolated A/B of a change to the mempool's structures, which the
// end-to-end load bench cannot separate from its noise on a shared machine (a 5 % change there is
// inside one run's spread). One child process per measurement, base then ours, MRAB_PAIRS pairs:
// both builds loaded in one process and alternated round by round measured the same sources 1.45x
// apart, whichever was loaded first being the slower, so a process runs one build only.
// A round is one height of the load bench's steady state, as mempool-update-turns.ts folds it: ADMIT
// fresh 100-byte txs hashed as the node hashes them (TxSha256.of) and admitted in turns of TURN
// (TxsSubmitted, then CheckTxsCompleted), then all but the LAG newest committed in pieces of
// UPDATE_PIECE (BlockTxsCommitted, BlockCommitted) by the pool's own keys, as the node's update
// finds them, and the recheck answered a window at a time. Pool 50,000, cache 10,000; the admitted
// digests' memo off, as on a lone validator. The txs' bytes are made before a round's clock starts.
// CPU is the process's (its collector threads included) per admitted tx, the median of a child's
// MRAB_ROUNDS rounds (default 8, after 3 of warm-up); wall beside it. MRAB_TURN: txs per turn (200).
//   flock /tmp/rxbft-bench.lock env MRAB_BASE=/tmp/b-base node --import tsx test/bench/mempool-reducer-ab.ts
// Never fails on time.
import { spawnSync } from "node:child_process";
import { fileURLToPath } from "node:url";
import type * as MempoolModule from "../../src/mempool/index.js";
import type * as HashesModule from "../../src/wire/hashes.js";
import type * as NodeModule from "../../streams/mempool-node.js";

const OURS = fileURLToPath(new URL("../..", import.meta.url));
const BASE = process.env.MRAB_BASE;
/** Set in a child: the one clone it measures. */
const ROOT = process.env.MRAB_ROOT;
const ROUNDS = Number(process.env.MRAB_ROUNDS ?? 8);
if (!Number.isInteger(ROUNDS) || ROUNDS < 1) throw new Error(`MRAB_ROUNDS: "${ROUNDS}" is not a count ≥ 1`);
const PAIRS = Number(process.env.MRAB_PAIRS ?? 4);
if (!Number.isInteger(PAIRS) || PAIRS < 1) throw new Error(`MRAB_PAIRS: "${PAIRS}" is not a count ≥ 1`);
if (ROOT === undefined && (BASE === undefined || BASE === ""))
  throw new Error("MRAB_BASE: the base clone's directory is required");
const WARMUP = 3;
const ADMIT = 18_000;
const LAG = 5_000;
const TURN = Number(process.env.MRAB_TURN ?? 200);
const RECHECK_WINDOW = 1024;

interface Side {
  name: string;
  m: typeof MempoolModule;
  h: typeof HashesModule;
  piece: number;
  state: MempoolModule.MempoolState;
  height: bigint;
  cpu: number[];
  wall: number[];
}

async function sideOf(name: string, root: string): Promise<Side> {
  const m: typeof MempoolModule = await import(`${root}/src/mempool/index.ts`);
  const h: typeof HashesModule = await import(`${root}/src/wire/hashes.ts`);
  const { UPDATE_PIECE }: typeof NodeModule = await import(`${root}/streams/mempool-node.ts`);
  h.keepAdmittedTxDigests(false);
  const config = { ...m.DEFAULT_MEMPOOL_CONFIG, size: 50_000, cacheSize: 10_000 };
  return {
    name,
    m,
    h,
    piece: UPDATE_PIECE,
    state: m.initialMempoolState(config, 1n),
    height: 2n,
    cpu: [],
    wall: [],
  };
}

let txNumber = 0;
let requestId = 1;
function freshTxs(n: number): Uint8Array[] {
  const out: Uint8Array[] = new Array(n);
  for (let i = 0; i < n; i++) {
    const tx = new Uint8Array(100).fill(0x76);
    const label = `k${txNumber++}=`;
    for (let j = 0; j < label.length; j++) tx[j] = label.charCodeAt(j);
    out[i] = tx;
  }
  return out;
}

/** One height folded through `s`'s reducer: its txs admitted, all but LAG committed, the rest rechecked. */
function height(s: Side, txs: readonly Uint8Array[]): void {
  const { m, h } = s;
  const fold = (input: MempoolModule.MempoolInput) => {
    const t = m.mempoolReducer(s.state, input);
    s.state = t.state;
    return t;
  };
  for (let done = 0; done < txs.length; done += TURN) {
    const submissions: MempoolModule.TxSubmission[] = [];
    for (let i = done; i < Math.min(txs.length, done + TURN); i++) {
      const sha256 = h.TxSha256.of(txs[i]!);
      submissions.push({ requestId: requestId++, hash: sha256.key, tx: sha256.tx, sha256, from: "rpc" });
    }
    fold({ type: "TxsSubmitted", submissions, time: 0 });
    const results = submissions.map((x) => ({ ...x, code: 0, gasWanted: 0n }));
    fold({ type: "CheckTxsCompleted", results, time: 0 });
  }
  const pooled = s.state.txs.toValueArray();
  const hashes = pooled.slice(0, Math.max(0, pooled.length - LAG)).map((e) => e.hash);
  const codes = hashes.map(() => 0);
  const at = s.height++;
  let from = 0;
  for (; hashes.length - from > s.piece; from += s.piece) {
    const to = from + s.piece;
    const piece = hashes.slice(from, to);
    fold({
      type: "BlockTxsCommitted",
      height: at,
      txHashes: piece,
      deliverTxCodes: codes.slice(from, to),
      time: 0,
    });
  }
  const t = fold({
    type: "BlockCommitted",
    height: at,
    txHashes: hashes.slice(from),
    deliverTxCodes: codes.slice(from),
    time: 0,
  });
  for (const e of t.effects) {
    if (e.type !== "RunRecheck") continue;
    for (let w = 0; w < e.txs.length; w += RECHECK_WINDOW) {
      const results = e.txs.slice(w, w + RECHECK_WINDOW).map(({ hash }) => ({ hash, code: 0 }));
      fold({ type: "RechecksCompleted", generation: e.generation, results, time: 0 });
    }
  }
}

function round(s: Side, measured: boolean): void {
  const txs = freshTxs(ADMIT);
  const cpu = process.cpuUsage();
  const start = performance.now();
  height(s, txs);
  const wall = performance.now() - start;
  const used = process.cpuUsage(cpu);
  if (!measured) return;
  s.cpu.push((used.user + used.system) / ADMIT);
  s.wall.push((wall * 1000) / ADMIT);
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[xs.length >> 1]!;
const show = (xs: number[]) => xs.map((x) => x.toFixed(2)).join(" ");

if (ROOT !== undefined) {
  const side = await sideOf(ROOT, ROOT);
  for (let r = 0; r < WARMUP + ROUNDS; r++) round(side, r >= WARMUP);
  console.log(
    `${ROOT}: CPU µs per tx median ${median(side.cpu).toFixed(2)} wall ${median(side.wall).toFixed(2)} ` +
      `[${show(side.cpu)}]; pool ${side.state.txs.size}, cache ${side.state.cache.size}`,
  );
} else {
  const script = fileURLToPath(import.meta.url);
  const measure = (root: string): { cpu: number; wall: number } => {
    const env = { ...process.env, MRAB_ROOT: root };
    const child = spawnSync(process.execPath, ["--import", "tsx", script], { env, encoding: "utf8" });
    const line = child.stdout.trim().split("\n").at(-1) ?? "";
    const figures = /CPU µs per tx median ([0-9.]+) wall ([0-9.]+)/.exec(line);
    if (child.status !== 0 || figures === null)
      throw new Error(
        `mempool reducer child for ${root} failed (status ${child.status}): ${child.stderr}${line}`,
      );
    console.log(line);
    return { cpu: Number(figures[1]), wall: Number(figures[2]) };
  };
  const base: { cpu: number; wall: number }[] = [];
  const ours: { cpu: number; wall: number }[] = [];
  for (let p = 0; p < PAIRS; p++) {
    base.push(measure(BASE!));
    ours.push(measure(OURS));
  }
  const [bc, oc] = [median(base.map((x) => x.cpu)), median(ours.map((x) => x.cpu))];
  const [bw, ow] = [median(base.map((x) => x.wall)), median(ours.map((x) => x.wall))];
  console.log(
    `mempool reducer CPU µs per admitted tx, ${PAIRS} alternated pairs: ours ${oc.toFixed(2)} [${show(ours.map((x) => x.cpu))}] ` +
      `vs base ${bc.toFixed(2)} [${show(base.map((x) => x.cpu))}] = ${(oc / bc).toFixed(3)}x (wall ${(ow / bw).toFixed(3)}x)`,
  );
}
