// The segment scanner and the search for a good frame after a bad one, over random frame sizes,
// read chunks smaller and larger than the frames, and damage (a cut, a flipped byte, garbage
// appended): both must say what checking the whole file in memory at once says.
import assert from "node:assert/strict";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { test } from "node:test";
import fc from "fast-check";
import {
  checkFrame,
  encodeEndHeightPayload,
  encodeFrame,
  type FrameFault,
  FrameType,
} from "../../src/wal/frame.js";
import { findFrameAfter, scanSegment } from "../../src/wal/segment-scanner.js";

const WRITE_BOUND = 1024;

const frame = fc.oneof(
  {
    weight: 5,
    arbitrary: fc.uint8Array({ maxLength: 700 }).map((p) => encodeFrame(FrameType.Input, p, WRITE_BOUND)),
  },
  {
    weight: 1,
    arbitrary: fc
      .bigInt({ min: 0n, max: (1n << 63n) - 1n })
      .map((h) => encodeFrame(FrameType.EndHeight, encodeEndHeightPayload(h), WRITE_BOUND)),
  },
);

const damage = fc.oneof(
  fc.record({ kind: fc.constant("none" as const) }),
  fc.record({ kind: fc.constant("cut" as const), at: fc.double({ min: 0, max: 1, noNaN: true }) }),
  fc.record({
    kind: fc.constant("flip" as const),
    at: fc.double({ min: 0, max: 1, noNaN: true }),
    bit: fc.nat(7),
  }),
  fc.record({
    kind: fc.constant("garbage" as const),
    bytes: fc.uint8Array({ minLength: 1, maxLength: 600 }),
  }),
);

function damaged(frames: Uint8Array[], d: DamageOf): Uint8Array {
  const whole = Buffer.concat(frames);
  if (d.kind === "cut") return whole.subarray(0, Math.floor(d.at * whole.length));
  if (d.kind === "flip" && whole.length > 0) {
    const i = Math.min(whole.length - 1, Math.floor(d.at * whole.length));
    whole[i]! ^= 1 << d.bit;
    return whole;
  }
  if (d.kind === "garbage") return Buffer.concat([whole, d.bytes]);
  return whole;
}
type DamageOf =
  | { kind: "none" }
  | { kind: "cut"; at: number }
  | { kind: "flip"; at: number; bit: number }
  | { kind: "garbage"; bytes: Uint8Array };

type Seen = {
  frames: Array<{ type: number; payload: string; offset: number; end: number }>;
  fault?: { offset: number; fault: FrameFault };
};

/** What a check of the whole file in memory gives: the good frames from 0, then the fault or the clean end. */
function expected(bytes: Uint8Array, bound: number): Seen {
  const seen: Seen = { frames: [] };
  let at = 0;
  while (true) {
    const check = checkFrame(bytes, at, bytes.length, bound);
    if (check.ok) {
      seen.frames.push({
        type: check.type,
        payload: Buffer.from(bytes.subarray(check.payloadStart, check.end)).toString("hex"),
        offset: at,
        end: check.end,
      });
      at = check.end;
      continue;
    }
    if (!(check.needMore && at === bytes.length)) seen.fault = { offset: at, fault: check.fault };
    return seen;
  }
}

function firstGoodFrom(bytes: Uint8Array, from: number, bound: number): number | undefined {
  for (let p = from; p < bytes.length; p++) if (checkFrame(bytes, p, bytes.length, bound).ok) return p;
  return undefined;
}

test("scanSegment and findFrameAfter agree with a whole-file check, whatever the chunk, frame sizes and damage", async () => {
  const dir = mkdtempSync(join(tmpdir(), "rxbft-wal-scan-prop-"));
  const path = join(dir, "wal.000000000000");
  try {
    await fc.assert(
      fc.asyncProperty(
        fc.array(frame, { maxLength: 16 }),
        damage as fc.Arbitrary<DamageOf>,
        fc.integer({ min: 16, max: 900 }),
        fc.constantFrom(WRITE_BOUND, 300),
        fc.double({ min: 0, max: 1, noNaN: true }),
        async (frames, d, chunk, bound, fromAt) => {
          const bytes = damaged(frames, d);
          writeFileSync(path, bytes);
          const want = expected(bytes, bound);
          const got: Seen = { frames: [] };
          for await (const item of scanSegment(path, 0, bound, chunk)) {
            if (item.kind === "frame") {
              got.frames.push({
                type: item.type,
                payload: Buffer.from(item.payload).toString("hex"),
                offset: item.offset,
                end: item.end,
              });
            } else got.fault = { offset: item.offset, fault: item.fault };
          }
          assert.deepEqual(got, want);
          const from = want.fault ? want.fault.offset + 1 : Math.floor(fromAt * bytes.length);
          assert.equal(
            await findFrameAfter(path, from, bound, chunk),
            firstGoodFrom(bytes, from, bound),
            `from ${from}`,
          );
        },
      ),
      { numRuns: 300 },
    );
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test("findFrameAfter finds a good frame larger than its window, behind bytes that are not frames", async () => {
  const dir = mkdtempSync(join(tmpdir(), "rxbft-wal-scan-prop-"));
  const path = join(dir, "wal.000000000000");
  try {
    await fc.assert(
      fc.asyncProperty(
        fc.uint8Array({ minLength: 1, maxLength: 200 }),
        fc.integer({ min: 200, max: 1000 }),
        fc.integer({ min: 16, max: 64 }),
        async (junk, size, chunk) => {
          const big = encodeFrame(FrameType.Input, new Uint8Array(size).fill(0x5a), WRITE_BOUND);
          const bytes = Buffer.concat([junk, big]);
          writeFileSync(path, bytes);
          const want = firstGoodFrom(bytes, 0, WRITE_BOUND);
          assert.ok(want !== undefined && want <= junk.length);
          assert.equal(await findFrameAfter(path, 0, WRITE_BOUND, chunk), want);
        },
      ),
      { numRuns: 100 },
    );
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
