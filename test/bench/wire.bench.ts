// Wire figures beside same-run baselines:
// - header hash/s (14-leaf merkle root) beside one flat sha256 of the encoded header;
// - vote encode+decode/s with the generated ts-proto codec beside protobufjs reflection on the
//   same .proto loaded at runtime (the generic protobufjs path);
// - merkle root of 10,000 txs beside hashing the same bytes flat with node:crypto.
// Bounded in count and time; never fails on time. Writes bench-results/wire.json.
import { createHash } from "node:crypto";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import protobuf from "protobufjs";
import { merkleRoot } from "../../src/crypto/merkle.js";
import { Header, SignedMsgType, Vote } from "../../src/wire/generated/tendermint/types/types.js";
import { dataHash, headerHash } from "../../src/wire/hashes.js";
import { paired as pairedRate, type RateBudget } from "./paired-rate.js";

const root = fileURLToPath(new URL("../..", import.meta.url));
const BUDGET_MS = 250;
const ROUNDS = 3;
const MAX_ITERATIONS = 2_000_000;

const budget: RateBudget = { budgetMs: BUDGET_MS, maxIterations: MAX_ITERATIONS, rounds: ROUNDS, batch: 200 };
/** Ours and the baseline in alternating rounds (paired-rate.ts); each side's best ops/s. */
const paired = (ours: () => void, baseline: () => void) => pairedRate(ours, baseline, budget);

/** Median wall time of `runs` calls, in ms. */
function medianMs(fn: () => void, runs: number): number {
  const times: number[] = [];
  const start = performance.now();
  for (let i = 0; i < runs && performance.now() - start < 3 * BUDGET_MS; i++) {
    const t = performance.now();
    fn();
    times.push(performance.now() - t);
  }
  times.sort((a, b) => a - b);
  return times[Math.floor(times.length / 2)]!;
}

const fill = (n: number, v: number) => new Uint8Array(n).fill(v);

const header: Header = {
  version: { block: 11n, app: 1n },
  chainId: "bench-chain",
  height: 123456n,
  time: { seconds: 1_700_000_000n, nanos: 123456789 },
  lastBlockId: { hash: fill(32, 1), partSetHeader: { total: 3, hash: fill(32, 2) } },
  lastCommitHash: fill(32, 3),
  dataHash: fill(32, 4),
  validatorsHash: fill(32, 5),
  nextValidatorsHash: fill(32, 6),
  consensusHash: fill(32, 7),
  appHash: fill(32, 8),
  lastResultsHash: fill(32, 9),
  evidenceHash: fill(32, 10),
  proposerAddress: fill(20, 11),
};
const headerBytes = Header.encode(header).finish();

const vote: Vote = {
  type: SignedMsgType.SIGNED_MSG_TYPE_PRECOMMIT,
  height: 123456n,
  round: 2,
  blockId: { hash: fill(32, 1), partSetHeader: { total: 3, hash: fill(32, 2) } },
  timestamp: { seconds: 1_700_000_000n, nanos: 123456789 },
  validatorAddress: fill(20, 3),
  validatorIndex: 7,
  signature: fill(64, 4),
};

// protobufjs reflection on the same schema, loaded at runtime.
const reflectRoot = new protobuf.Root();
reflectRoot.resolvePath = (_origin, target) =>
  target.startsWith("/") || target.startsWith("google/protobuf/")
    ? target
    : join(root, "src/wire/proto", target);
await reflectRoot.load(join(root, "src/wire/proto/tendermint/types/types.proto"), { keepCase: false });
const ReflectVote = reflectRoot.lookupType("tendermint.types.Vote");
const reflectVote = ReflectVote.fromObject({
  type: vote.type,
  height: vote.height.toString(),
  round: vote.round,
  blockId: { hash: vote.blockId.hash, partSetHeader: vote.blockId.partSetHeader },
  timestamp: { seconds: vote.timestamp.seconds.toString(), nanos: vote.timestamp.nanos },
  validatorAddress: vote.validatorAddress,
  validatorIndex: vote.validatorIndex,
  signature: vote.signature,
});
const oursBytes = Vote.encode(vote).finish();
const theirsBytes = ReflectVote.encode(reflectVote).finish();
if (Buffer.compare(Buffer.from(oursBytes), Buffer.from(theirsBytes)) !== 0)
  throw new Error("baseline encodes the vote differently: the comparison would be meaningless");

const txs = Array.from({ length: 10_000 }, (_, i) => {
  const tx = new Uint8Array(64);
  new DataView(tx.buffer).setUint32(0, i);
  return tx;
});
const flatTxs = Buffer.concat(txs);

// Both hashes are remembered per object (src/wire/hashes.ts), so each call hands a fresh copy:
// the figure is the hashing, not a lookup of the remembered answer.
const [headerHashRate, flatHeaderRate] = paired(
  () => headerHash({ ...header }),
  () => createHash("sha256").update(headerBytes).digest(),
);
const [voteRate, reflectRate] = paired(
  () => Vote.decode(Vote.encode(vote).finish()),
  () => ReflectVote.decode(ReflectVote.encode(reflectVote).finish()),
);
const merkleMs = medianMs(() => merkleRoot(txs), 11);
const dataHashMs = medianMs(() => dataHash(txs.slice()), 11);
const flatMs = medianMs(() => createHash("sha256").update(flatTxs).digest(), 11);

const results = {
  headerHashPerSecond: Math.round(headerHashRate),
  flatHeaderSha256PerSecond: Math.round(flatHeaderRate),
  headerHashRatio: headerHashRate / flatHeaderRate,
  voteEncodeDecodePerSecond: Math.round(voteRate),
  protobufjsReflectionVoteEncodeDecodePerSecond: Math.round(reflectRate),
  voteRatio: voteRate / reflectRate,
  merkleRoot10kTxsMs: merkleMs,
  dataHash10kTxsMs: dataHashMs,
  flatSha256Of10kTxsMs: flatMs,
  merkleRatio: merkleMs / flatMs,
};

console.log(
  `header hash:        ${results.headerHashPerSecond.toLocaleString()}/s  vs flat sha256 of the header ${results.flatHeaderSha256PerSecond.toLocaleString()}/s  (ratio ${results.headerHashRatio.toFixed(3)})`,
);
console.log(
  `vote encode+decode: ${results.voteEncodeDecodePerSecond.toLocaleString()}/s  vs protobufjs reflection ${results.protobufjsReflectionVoteEncodeDecodePerSecond.toLocaleString()}/s  (ratio ${results.voteRatio.toFixed(2)})`,
);
console.log(
  `merkle root of 10,000 txs: ${merkleMs.toFixed(2)} ms (data hash incl. tx hashes ${dataHashMs.toFixed(2)} ms)  vs flat sha256 of the same bytes ${flatMs.toFixed(3)} ms  (ratio ${results.merkleRatio.toFixed(1)}× slower)`,
);

mkdirSync(join(root, "bench-results"), { recursive: true });
writeFileSync(join(root, "bench-results", "wire.json"), `${JSON.stringify(results, null, 2)}\n`);
