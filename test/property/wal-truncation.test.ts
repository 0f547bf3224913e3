// Cutting the log at any byte (what a crash can leave) and reopening gives back a prefix of what
// was appended, at least everything synced, and the log accepts appends again.
import assert from "node:assert/strict";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { test } from "node:test";
import fc from "fast-check";
import { FRAME_HEADER_SIZE, schemeAfterHeader } from "../../src/wal/frame.js";
import { readWal, type WalEntry } from "../../src/wal/log-reader.js";
import { Wal } from "../../src/wal/wal.js";

const steps = fc.array(
  fc.oneof(
    { weight: 6, arbitrary: fc.record({ op: fc.constant("append" as const), size: fc.nat({ max: 300 }) }) },
    { weight: 1, arbitrary: fc.record({ op: fc.constant("sync" as const) }) },
    { weight: 1, arbitrary: fc.record({ op: fc.constant("end-height" as const) }) },
  ),
  { minLength: 1, maxLength: 25 },
);

async function entriesOf(dir: string): Promise<WalEntry[]> {
  const out: WalEntry[] = [];
  for await (const e of readWal(dir)) out.push(e);
  return out;
}

test("a log cut at any byte reopens to a prefix holding everything synced before the cut", async () => {
  const base = mkdtempSync(join(tmpdir(), "rxbft-wal-prop-"));
  let run = 0;
  try {
    await fc.assert(
      fc.asyncProperty(steps, fc.double({ min: 0, max: 1, noNaN: true }), async (plan, cutAt) => {
        const dir = join(base, `run-${run++}`);
        const wal = await Wal.open(dir);
        const written: WalEntry[] = [];
        let height = 0n;
        // (file size, entries) at each sync: what must survive a cut at or after that size.
        const syncPoints: Array<{ size: number; count: number }> = [];
        const file = join(dir, "wal.000000000000");
        for (const [i, step] of plan.entries()) {
          if (step.op === "append") {
            const input = { type: "Test", i, pad: new Uint8Array(step.size).fill(i) };
            wal.appendInput(input);
            written.push({ kind: "input", input });
          } else if (step.op === "sync") {
            await wal.sync();
            syncPoints.push({ size: readFileSync(file).length, count: written.length });
          } else {
            height++;
            await wal.endHeight(height);
            written.push({ kind: "end-height", height });
            syncPoints.push({ size: readFileSync(file).length, count: written.length });
          }
        }
        await wal.close();
        const bytes = readFileSync(file);
        const cut = Math.floor(cutAt * bytes.length);
        writeFileSync(file, bytes.subarray(0, cut));

        const reopened = await Wal.open(dir);
        const got = await entriesOf(dir);
        assert.deepStrictEqual(got, written.slice(0, got.length), "a prefix of what was written");
        const mustHave = Math.max(0, ...syncPoints.filter((p) => p.size <= cut).map((p) => p.count));
        assert.ok(
          got.length >= mustHave,
          `kept ${got.length} entries, ${mustHave} were synced before the cut`,
        );
        assert.equal(
          reopened.repair === undefined,
          isFrameEnd(bytes, cut),
          "a repair exactly when a record was torn",
        );
        reopened.appendInput({ type: "After" });
        await reopened.close();
        const after = await entriesOf(dir);
        assert.deepStrictEqual(after.at(-1), { kind: "input", input: { type: "After" } });
        assert.equal(after.length, got.length + 1);
        rmSync(dir, { recursive: true, force: true });
      }),
      { numRuns: 60 },
    );
  } finally {
    rmSync(base, { recursive: true, force: true });
  }
});

/**
 * Whether `cut` falls exactly on a record boundary of `bytes` (then nothing is torn). The segment
 * header is a plain frame; the frames after it have the head its format gives them (format 3's
 * keyed frames carry a head check after the type byte).
 */
function isFrameEnd(bytes: Uint8Array, cut: number): boolean {
  const lengthAt = (at: number) => new DataView(bytes.buffer, bytes.byteOffset + at).getUint32(0, false);
  if (cut === 0) return true; // nothing left, nothing torn (a log never appended to may be empty)
  const headerEnd = FRAME_HEADER_SIZE + lengthAt(0);
  const scheme = schemeAfterHeader(bytes.subarray(FRAME_HEADER_SIZE + 1, headerEnd));
  let at = 0;
  while (at < cut) at += (at === 0 ? FRAME_HEADER_SIZE : scheme.headBytes - 1) + lengthAt(at);
  return at === cut;
}
