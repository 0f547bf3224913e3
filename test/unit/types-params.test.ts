// Consensus params defaults, validation, app updates, block limits, and time conversions.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import {
  MAX_BLOCK_SIZE_BYTES,
  maxCommitBytes,
  maxDataBytes,
  maxDataBytesNoEvidence,
} from "../../src/types/block-limits.js";
import {
  defaultConsensusParams,
  toAbciConsensusParams,
  updateConsensusParams,
  validateConsensusParams,
} from "../../src/types/consensus-params.js";
import { TypesError } from "../../src/types/errors.js";
import {
  compareTimestamps,
  goZeroTime,
  timestampFromNanos,
  timestampFromRfc3339,
  timestampToNanos,
  timestampToRfc3339,
} from "../../src/types/time.js";

function refusedParam(fn: () => void, field: string): void {
  assert.throws(
    fn,
    (e: unknown) => e instanceof TypesError && e.code === "TYPES_INVALID_PARAMS" && e.field === field,
  );
}

describe("consensus params", () => {
  it("defaults are v0.34's and valid", () => {
    const p = defaultConsensusParams();
    assert.equal(p.block.maxBytes, 22020096n);
    assert.equal(p.block.maxGas, -1n);
    assert.equal(p.block.timeIotaMs, 1000n);
    assert.equal(p.evidence.maxAgeNumBlocks, 100000n);
    assert.deepEqual(p.evidence.maxAgeDuration, { seconds: 172800n, nanos: 0 });
    assert.equal(p.evidence.maxBytes, 1048576n);
    assert.deepEqual(p.validator.pubKeyTypes, ["ed25519"]);
    validateConsensusParams(p);
  });

  it("validation names the bad field", () => {
    const p = defaultConsensusParams();
    refusedParam(
      () => validateConsensusParams({ ...p, block: { ...p.block, maxBytes: 0n } }),
      "consensusParams.block.max_bytes",
    );
    refusedParam(
      () =>
        validateConsensusParams({ ...p, block: { ...p.block, maxBytes: BigInt(MAX_BLOCK_SIZE_BYTES) + 1n } }),
      "consensusParams.block.max_bytes",
    );
    refusedParam(
      () => validateConsensusParams({ ...p, block: { ...p.block, maxGas: -2n } }),
      "consensusParams.block.max_gas",
    );
    refusedParam(
      () => validateConsensusParams({ ...p, evidence: { ...p.evidence, maxBytes: p.block.maxBytes + 1n } }),
      "consensusParams.evidence.max_bytes",
    );
    refusedParam(
      () =>
        validateConsensusParams({
          ...p,
          evidence: { ...p.evidence, maxAgeDuration: { seconds: 0n, nanos: 0 } },
        }),
      "consensusParams.evidence.max_age_duration",
    );
    refusedParam(
      () => validateConsensusParams({ ...p, validator: { pubKeyTypes: ["rsa"] } }),
      "consensusParams.validator.pub_key_types[0]",
    );
  });

  it("an app update replaces the given sections and keeps time_iota_ms", () => {
    const p = defaultConsensusParams();
    const next = updateConsensusParams(p, {
      block: { maxBytes: 1000n, maxGas: 50n },
      evidence: undefined,
      validator: { pubKeyTypes: ["secp256k1"] },
      version: undefined,
    });
    assert.deepEqual(next.block, { maxBytes: 1000n, maxGas: 50n, timeIotaMs: 1000n });
    assert.deepEqual(next.evidence, p.evidence);
    assert.deepEqual(next.validator.pubKeyTypes, ["secp256k1"]);
    assert.equal(updateConsensusParams(p, undefined), p);
    assert.deepEqual(toAbciConsensusParams(p).block, { maxBytes: 22020096n, maxGas: -1n });
  });
});

describe("block limits", () => {
  it("commit and data bytes follow v0.34's overheads", () => {
    assert.equal(maxCommitBytes(1), 94 + 111);
    assert.equal(maxDataBytesNoEvidence(22020096, 1), 22020096 - 11 - 626 - 205);
    assert.equal(maxDataBytes(22020096, 1000, 4), 22020096 - 11 - 626 - (94 + 111 * 4) - 1000);
    assert.throws(() => maxDataBytes(500, 0, 1), TypesError);
  });
});

describe("timestamps", () => {
  it("RFC 3339 round trips at nanosecond precision, as Go prints it", () => {
    for (const s of [
      "2019-10-13T16:14:44Z",
      "2017-12-25T03:00:01.234Z",
      "2020-01-01T00:00:00.000000001Z",
      "0001-01-01T00:00:00Z",
    ])
      assert.equal(timestampToRfc3339(timestampFromRfc3339(s)), s);
    assert.deepEqual(timestampFromRfc3339("0001-01-01T00:00:00Z"), goZeroTime());
    assert.deepEqual(
      timestampFromRfc3339("2019-10-13T18:14:44+02:00"),
      timestampFromRfc3339("2019-10-13T16:14:44Z"),
    );
    assert.throws(() => timestampFromRfc3339("yesterday"), TypesError);
  });

  it("RFC 3339 refuses days a month does not have, as Go's time.Parse does", () => {
    for (const s of [
      "2021-02-29T00:00:00Z",
      "2021-02-30T00:00:00Z",
      "2021-04-31T12:00:00Z",
      "1900-02-29T00:00:00Z",
    ])
      assert.throws(() => timestampFromRfc3339(s), TypesError, s);
    assert.equal(timestampToRfc3339(timestampFromRfc3339("2020-02-29T00:00:00Z")), "2020-02-29T00:00:00Z");
    assert.equal(timestampToRfc3339(timestampFromRfc3339("0004-02-29T00:00:00Z")), "0004-02-29T00:00:00Z");
  });

  it("nanosecond arithmetic handles times before the epoch", () => {
    const t = { seconds: -2n, nanos: 500 };
    assert.deepEqual(timestampFromNanos(timestampToNanos(t)), t);
    assert.ok(compareTimestamps(t, { seconds: -2n, nanos: 501 }) < 0);
    assert.equal(compareTimestamps(t, { ...t }), 0);
  });
});
