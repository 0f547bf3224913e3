// The consensus log's record codec and its declared schema, on generated inputs of every type:
// each record encodes, decodes to an equal value, re-encodes to the same bytes, and passes the
// schema; dropping any declared field of it, or adding an undeclared one, is refused by name.
import assert from "node:assert/strict";
import { it } from "node:test";
import fc from "fast-check";
import type { ConsensusInput } from "../../src/consensus/input.js";
import { consensusRecordProblem } from "../../src/consensus/log-record-schema.js";
import { decodeRecord, encodeRecord } from "../../src/wal/record-codec.js";
import {
  block,
  bytes,
  commit,
  consensusParams,
  evidence,
  int32,
  int64,
  part,
  proposal,
  smallList,
  text,
  timestamp,
  validatorSet,
  vote,
} from "./codec-arbitraries.js";

const optionalSet = fc.option(validatorSet, { nil: undefined });
const chainState = fc.record({
  version: fc.record({ consensus: fc.record({ block: int64, app: int64 }), software: text }),
  chainId: text,
  initialHeight: int64,
  lastBlockHeight: int64,
  lastBlockId: fc.record({ hash: bytes(32), partSetHeader: fc.record({ total: int32, hash: bytes(32) }) }),
  lastBlockTime: timestamp,
  nextValidators: optionalSet,
  validators: optionalSet,
  lastValidators: optionalSet,
  lastHeightValidatorsChanged: int64,
  consensusParams,
  lastHeightConsensusParamsChanged: int64,
  lastResultsHash: bytes(32),
  appHash: bytes(32),
});

const input: fc.Arbitrary<ConsensusInput> = fc.oneof(
  fc.record({
    type: fc.constant("ConsensusStarted" as const),
    time: timestamp,
    chainState,
    lastCommit: fc.option(commit, { nil: undefined }),
    lastBlockAppHash: bytes(32),
  }),
  fc.record({ type: fc.constant("ConsensusResumed" as const), time: timestamp }),
  fc.record({ type: fc.constant("BlockExecuted" as const), time: timestamp, height: int64, chainState }),
  fc.record({ type: fc.constant("ProposalReceived" as const), time: timestamp, proposal, from: text }),
  fc.record({
    type: fc.constant("BlockPartReceived" as const),
    time: timestamp,
    height: int64,
    round: int32,
    part,
    from: text,
  }),
  fc.record({ type: fc.constant("VoteReceived" as const), time: timestamp, vote, from: text }),
  fc.record({
    type: fc.constant("TimeoutElapsed" as const),
    time: timestamp,
    height: int64,
    round: int32,
    step: fc.integer({ min: 1, max: 8 }),
  }),
  fc.record({ type: fc.constant("TxsAvailable" as const), time: timestamp, height: int64 }),
  fc.record({
    type: fc.constant("ProposalBlockReaped" as const),
    time: timestamp,
    height: int64,
    round: int32,
    txs: smallList(bytes(50), 4),
    evidence: smallList(evidence, 2),
  }),
  fc.record({ type: fc.constant("ProposalSigned" as const), time: timestamp, proposal }),
  fc.record({ type: fc.constant("VoteSigned" as const), time: timestamp, vote }),
  fc.record({
    type: fc.constant("SignFailed" as const),
    time: timestamp,
    height: int64,
    round: int32,
    what: fc.constantFrom("proposal" as const, "prevote" as const, "precommit" as const),
    reason: text,
  }),
  fc.record(
    {
      type: fc.constant("BlockValidated" as const),
      time: timestamp,
      height: int64,
      blockHash: bytes(32),
      error: text,
    },
    { requiredKeys: ["type", "time", "height", "blockHash"] },
  ),
) as fc.Arbitrary<ConsensusInput>;

it("every generated input round-trips through the record codec and passes the declared schema", () => {
  fc.assert(
    fc.property(input, (record) => {
      const encoded = encodeRecord(record);
      const decoded = decodeRecord(encoded);
      assert.equal(consensusRecordProblem(decoded), undefined);
      assert.deepStrictEqual(decoded, structuredClone(record));
      assert.deepStrictEqual(encodeRecord(decoded), encoded);
    }),
    { numRuns: 300 },
  );
});

it("a record missing a declared field, or with an undeclared one, is refused by name", () => {
  fc.assert(
    fc.property(input, fc.nat(), (record, pick) => {
      const keys = Object.keys(record).filter((k) => k !== "type" && k !== "error" && k !== "lastCommit");
      const key = keys[pick % keys.length]!;
      const missing: Record<string, unknown> = { ...record };
      delete missing[key];
      assert.match(consensusRecordProblem(missing) ?? "", new RegExp(`${record.type}\\.${key} should be`));
      assert.match(
        consensusRecordProblem({ ...record, unknownField: 1 }) ?? "",
        /has an undeclared field "unknownField"/,
      );
    }),
    { numRuns: 300 },
  );
});

it("a block carried in a record is checked to its leaves", () => {
  fc.assert(
    fc.property(block, (b) => {
      const record = {
        type: "ProposalBlockReaped",
        time: { seconds: 1n, nanos: 0 },
        height: 1n,
        round: 0,
        txs: b.data.txs,
        evidence: b.evidence.evidence,
      };
      assert.equal(consensusRecordProblem(decodeRecord(encodeRecord(record))), undefined);
    }),
    { numRuns: 100 },
  );
});
