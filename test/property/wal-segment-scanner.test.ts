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
  encodeKeyedHeaderPayload,
  type FrameFault,
  FrameType,
  keyedFrames,
} from "../../src/wal/frame.js";
import { findFrameAfter, findFrameAfterFault, scanSegment } from "../../src/wal/segment-scanner.js";

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

// Format 3: keyed frames after a header holding the segment's keys. Payloads hold frames of the
// unkeyed formats and keyed frames under other keys (what a tx may carry). Damage to any record
// but the last must leave the records after it found (they are durable: cutting them loses data),
// whether the damage hits the record's length, type, checks or payload; a cut must leave nothing
// found after it (a torn tail). The header's own 8 key bytes are left out of the damage: without
// them the segment's later records cannot be told from any other bytes (docs/storage.md, "A tx
// cannot make a crashed node's log unreadable").
const KEYED_BOUND = 4096;
const KEYED_HEADER_BYTES = 27;
const KEY_BYTES_AT = 19;

const embedded = fc.oneof(
  fc.uint8Array({ maxLength: 300 }),
  fc.uint8Array({ maxLength: 200 }).map((p) => encodeFrame(FrameType.Input, p, WRITE_BOUND)),
  fc
    .tuple(fc.uint8Array({ minLength: 8, maxLength: 8 }), fc.uint8Array({ maxLength: 200 }))
    .map(([k, p]) => encodeFrame(FrameType.Input, p, WRITE_BOUND, keyedFrames(k))),
);
const keyedRecord = fc.oneof(
  {
    weight: 5,
    arbitrary: fc
      .array(embedded, { maxLength: 3 })
      .map((parts) => ({ type: FrameType.Input, payload: Buffer.concat(parts) })),
  },
  {
    weight: 1,
    arbitrary: fc
      .bigInt({ min: 0n, max: (1n << 63n) - 1n })
      .map((h) => ({ type: FrameType.EndHeight, payload: encodeEndHeightPayload(h) })),
  },
);

test("in a keyed segment, a damaged record's successors are found and a cut leaves nothing after it", async () => {
  const dir = mkdtempSync(join(tmpdir(), "rxbft-wal-keyed-prop-"));
  const path = join(dir, "wal.000000000000");
  try {
    await fc.assert(
      fc.asyncProperty(
        fc.uint8Array({ minLength: 8, maxLength: 8 }),
        fc.array(keyedRecord, { minLength: 1, maxLength: 10 }),
        fc.oneof(
          fc.record({
            kind: fc.constant("flip" as const),
            at: fc.double({ min: 0, max: 1, noNaN: true }),
            bit: fc.nat(7),
          }),
          fc.record({ kind: fc.constant("cut" as const), at: fc.double({ min: 0, max: 1, noNaN: true }) }),
          // A flip in a record's 13-byte head (its length among them): the likeliest to mislead a
          // search that trusts a length.
          fc.record({
            kind: fc.constant("head" as const),
            at: fc.double({ min: 0, max: 1, noNaN: true }),
            byte: fc.nat(12),
            bit: fc.nat(7),
          }),
        ),
        fc.integer({ min: 16, max: 900 }),
        async (keys, records, d, chunk) => {
          const scheme = keyedFrames(keys);
          const frames = [
            encodeFrame(FrameType.Header, encodeKeyedHeaderPayload(keys), 64),
            ...records.map((r) => encodeFrame(r.type, r.payload, KEYED_BOUND, scheme)),
          ];
          const starts: number[] = [];
          let size = 0;
          for (const f of frames) {
            starts.push(size);
            size += f.length;
          }
          const bytes = Buffer.concat(frames);
          // The record a damage falls in, and where the next one starts.
          const at =
            d.kind === "head"
              ? starts[1 + Math.min(records.length - 1, Math.floor(d.at * records.length))]! + d.byte
              : Math.min(size - 1, Math.floor(d.at * size));
          const k = starts.findLastIndex((s) => s <= at);
          const next = starts[k + 1];
          if (d.kind !== "cut") {
            if (at >= KEY_BYTES_AT && at < KEYED_HEADER_BYTES) return; // the keys themselves: see above
            bytes[at]! ^= 1 << d.bit;
            writeFileSync(path, bytes);
          } else {
            if (at === starts[k]) return; // a cut between records leaves a clean log
            writeFileSync(path, bytes.subarray(0, at));
          }
          let fault: { offset: number; fault: FrameFault } | undefined;
          let good = 0;
          for await (const item of scanSegment(path, 0, KEYED_BOUND, chunk)) {
            if (item.kind === "fault") fault = { offset: item.offset, fault: item.fault };
            else {
              assert.equal(item.offset, starts[good], "frames before the damage are read as written");
              good++;
            }
          }
          assert.ok(fault, `${d.kind} at ${at} is found`);
          assert.equal(fault.offset, starts[k], `the fault is the damaged record's (${fault.fault})`);
          const after = await findFrameAfterFault(path, fault.offset, KEYED_BOUND, chunk);
          assert.equal(after, d.kind === "cut" ? undefined : next, `after a ${d.kind} in record ${k}`);
        },
      ),
      { numRuns: 400 },
    );
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
