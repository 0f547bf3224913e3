// A height's DeliverTx results into the ABCI responses record, the two ways (issue 19 item 2, the
// twentieth pass in docs/storage.md): "apart" encodes each result into an array of its own and then
// copies them into the record (the node before the pass); "in place" writes each result once into
// the record's array and keeps views of it (encodeAbciResponsesInPieces now). kvstore-shaped
// results (four attributes, a 12-byte key), RR_TXS per height, RR_HEIGHTS heights each way,
// alternated; CPU time of this thread (GC included) per result. Never fails on time.
//   RR_TXS=20000 RR_HEIGHTS=30 node --import tsx test/bench/results-record.bench.ts
import { performance } from "node:perf_hooks";
import { cpuUsage } from "node:process";
import {
  deliverTxBytes,
  encodeAbciResponsesInPieces,
  encodeDeliverTx,
} from "../../src/store/deliver-tx-bytes.js";
import type { ResponseDeliverTx } from "../../src/wire/generated/tendermint/abci/types.js";
import type { ABCIResponses } from "../../src/wire/generated/tendermint/state/types.js";
import { field1ItemsInPieces } from "../../src/wire/repeated-bytes-in-pieces.js";
import { kvstoreDeliverTx } from "../fixtures/store/chain-fixture.js";

const TXS = Number(process.env.RR_TXS ?? 20_000);
const HEIGHTS = Number(process.env.RR_HEIGHTS ?? 30);
const PIECE = 2048;
const pause = () => new Promise<void>((resolve) => setImmediate(resolve));

function height(h: number): ABCIResponses {
  const deliverTxs: ResponseDeliverTx[] = new Array(TXS);
  for (let i = 0; i < TXS; i++) deliverTxs[i] = kvstoreDeliverTx(`r-${h}-${i}`);
  return { deliverTxs, beginBlock: { events: [] }, endBlock: undefined };
}

async function apart(r: ABCIResponses): Promise<number> {
  const parts: Uint8Array[] = new Array(r.deliverTxs.length);
  for (let i = 0; i < parts.length; i++) {
    if (i > 0 && i % PIECE === 0) await pause();
    parts[i] = encodeDeliverTx(r.deliverTxs[i]!);
  }
  const bytes = await field1ItemsInPieces(parts, pause, PIECE);
  return bytes.length + parts.length;
}

async function inPlace(r: ABCIResponses): Promise<number> {
  const bytes = await encodeAbciResponsesInPieces(r, pause, PIECE);
  return bytes.length + deliverTxBytes(r.deliverTxs).length;
}

const cpu = { apart: 0, inPlace: 0 };
const wall = { apart: 0, inPlace: 0 };
// Heights stay alive one behind, as the node keeps a height's results until it is indexed.
let keep: unknown[] = [];
for (let h = 0; h < 2 * HEIGHTS + 4; h++) {
  const way = h % 2 === 0 ? "apart" : "inPlace";
  const r = height(h);
  const c0 = cpuUsage();
  const t0 = performance.now();
  keep.push(await (way === "apart" ? apart(r) : inPlace(r)), r);
  if (keep.length > 4) keep = keep.slice(-4);
  if (h >= 4) {
    const used = cpuUsage(c0);
    cpu[way] += used.user + used.system;
    wall[way] += performance.now() - t0;
  }
}
const perTx = (us: number) => ((us / (HEIGHTS * TXS)) * 1000).toFixed(0);
console.log(
  `results into the record, ${TXS} per height, ${HEIGHTS} heights each, alternated: CPU per result apart ${perTx(cpu.apart)} ns, in place ${perTx(cpu.inPlace)} ns (${(cpu.inPlace / cpu.apart).toFixed(2)}x); wall per height ${(wall.apart / HEIGHTS).toFixed(1)} / ${(wall.inPlace / HEIGHTS).toFixed(1)} ms`,
);
