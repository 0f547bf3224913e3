// Vote and proposal sign bytes against reference §10.1–10.2.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { sha256 } from "../../src/crypto/hash.js";
import { goZeroTime, timestampFromRfc3339 } from "../../src/types/time.js";
import {
  type BlockID,
  type Proposal,
  SignedMsgType,
  type Vote,
} from "../../src/wire/generated/tendermint/types/types.js";
import { proposalSignBytes, voteSignBytes } from "../../src/wire/sign-bytes.js";

const hex = (b: Uint8Array) => Buffer.from(b).toString("hex");
const utf8 = (s: string) => new TextEncoder().encode(s);
const empty = new Uint8Array(0);
const zeroBlockId = (): BlockID => ({ hash: empty, partSetHeader: { total: 0, hash: empty } });

function vote(fields: Partial<Vote>): Vote {
  return {
    type: SignedMsgType.SIGNED_MSG_TYPE_UNKNOWN,
    height: 0n,
    round: 0,
    blockId: zeroBlockId(),
    timestamp: goZeroTime(),
    validatorAddress: empty,
    validatorIndex: 0,
    signature: empty,
    ...fields,
  };
}

describe("vote sign bytes (reference §10.1)", () => {
  const cases: [string, string, Partial<Vote>, string][] = [
    ["all zero", "", {}, "0d2a0b088092b8c398feffffff01"],
    [
      "precommit h=1 r=1",
      "",
      { type: SignedMsgType.SIGNED_MSG_TYPE_PRECOMMIT, height: 1n, round: 1 },
      "2108021101000000000000001901000000000000002a0b088092b8c398feffffff01",
    ],
    [
      "prevote h=1 r=1",
      "",
      { type: SignedMsgType.SIGNED_MSG_TYPE_PREVOTE, height: 1n, round: 1 },
      "2108011101000000000000001901000000000000002a0b088092b8c398feffffff01",
    ],
    [
      "type 0 h=1 r=1",
      "",
      { height: 1n, round: 1 },
      "1f1101000000000000001901000000000000002a0b088092b8c398feffffff01",
    ],
    [
      "with chain id",
      "test_chain_id",
      { height: 1n, round: 1 },
      "2e1101000000000000001901000000000000002a0b088092b8c398feffffff01320d746573745f636861696e5f6964",
    ],
  ];
  for (const [name, chainId, fields, expected] of cases) {
    it(name, () => assert.equal(hex(voteSignBytes(chainId, vote(fields))), expected));
  }

  it("the example vote of vote_test.go", () => {
    const v = vote({
      type: SignedMsgType.SIGNED_MSG_TYPE_PRECOMMIT,
      height: 12345n,
      round: 2,
      timestamp: timestampFromRfc3339("2017-12-25T03:00:01.234Z"),
      blockId: {
        hash: sha256(utf8("blockID_hash")),
        partSetHeader: { total: 1000000, hash: sha256(utf8("blockID_part_set_header_hash")) },
      },
      validatorAddress: sha256(utf8("validator_address")).subarray(0, 20),
      validatorIndex: 56789,
    });
    assert.equal(
      hex(voteSignBytes("test_chain_id", v)),
      "7c0802113930000000000000190200000000000000224a0a208b01023386c371778ecb6368573e539afc3cc860ec3a2f614e54fe5652f4fc80122608c0843d122072db3d959635dff1bb567bedaa70573392c5159666a3f8caf11e413aac52207a2a0b08b1d381d20510809dca6f320d746573745f636861696e5f6964",
    );
  });

  it("ignores address, index and signature", () => {
    const base = vote({ type: SignedMsgType.SIGNED_MSG_TYPE_PREVOTE, height: 5n });
    const other = {
      ...base,
      validatorAddress: new Uint8Array(20).fill(1),
      validatorIndex: 3,
      signature: new Uint8Array(64),
    };
    assert.deepEqual(voteSignBytes("c", other), voteSignBytes("c", base));
  });
});

describe("proposal sign bytes (reference §10.2)", () => {
  it("the test proposal of proposal_test.go", () => {
    const h = utf8("--June_15_2020_amino_was_removed");
    const p: Proposal = {
      type: SignedMsgType.SIGNED_MSG_TYPE_PROPOSAL,
      height: 12345n,
      round: 23456,
      polRound: -1,
      blockId: { hash: h, partSetHeader: { total: 111, hash: h } },
      timestamp: timestampFromRfc3339("2018-02-11T07:09:22.765Z"),
      signature: empty,
    };
    assert.equal(
      hex(proposalSignBytes("test_chain_id", p)),
      "8601082011393000000000000019a05b00000000000020ffffffffffffffffff012a480a202d2d4a756e655f31355f323032305f616d696e6f5f7761735f72656d6f7665641224086f12202d2d4a756e655f31355f323032305f616d696e6f5f7761735f72656d6f766564320c08a2d8ffd30510c0f2e3ec023a0d746573745f636861696e5f6964",
    );
  });
});
