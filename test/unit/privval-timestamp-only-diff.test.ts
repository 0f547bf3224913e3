import assert from "node:assert/strict";
import { test } from "node:test";
import { storedTimestampIfOnlyTimeDiffers } from "../../src/privval/timestamp-only-diff.js";
import { type Proposal, SignedMsgType, type Vote } from "../../src/wire/generated/tendermint/types/types.js";
import { proposalSignBytes, voteSignBytes } from "../../src/wire/sign-bytes.js";

const block = {
  hash: new Uint8Array(32).fill(1),
  partSetHeader: { total: 2, hash: new Uint8Array(32).fill(2) },
};
const vote = (fields: Partial<Vote> = {}): Vote => ({
  type: SignedMsgType.SIGNED_MSG_TYPE_PREVOTE,
  height: 7n,
  round: 1,
  blockId: block,
  timestamp: { seconds: 1_700_000_000n, nanos: 1 },
  validatorAddress: new Uint8Array(20),
  validatorIndex: 0,
  signature: new Uint8Array(0),
  ...fields,
});
const proposal = (fields: Partial<Proposal> = {}): Proposal => ({
  type: SignedMsgType.SIGNED_MSG_TYPE_PROPOSAL,
  height: 7n,
  round: 1,
  polRound: 0,
  blockId: block,
  timestamp: { seconds: 1_700_000_000n, nanos: 1 },
  signature: new Uint8Array(0),
  ...fields,
});
const later = { seconds: 1_700_000_100n, nanos: 999 };

test("votes differing only in time give the stored time; any other difference gives nothing", () => {
  const stored = voteSignBytes("c", vote());
  assert.deepEqual(
    storedTimestampIfOnlyTimeDiffers("vote", stored, voteSignBytes("c", vote({ timestamp: later }))),
    {
      seconds: 1_700_000_000n,
      nanos: 1,
    },
  );
  for (const other of [
    vote({ timestamp: later, height: 8n }),
    vote({ timestamp: later, round: 2 }),
    vote({ timestamp: later, type: SignedMsgType.SIGNED_MSG_TYPE_PRECOMMIT }),
    vote({ timestamp: later, blockId: { ...block, hash: new Uint8Array(32).fill(9) } }),
  ]) {
    assert.equal(storedTimestampIfOnlyTimeDiffers("vote", stored, voteSignBytes("c", other)), undefined);
  }
  assert.equal(
    storedTimestampIfOnlyTimeDiffers("vote", stored, voteSignBytes("d", vote({ timestamp: later }))),
    undefined,
  );
});

test("proposals differing only in time give the stored time; another POL round gives nothing", () => {
  const stored = proposalSignBytes("c", proposal());
  assert.deepEqual(
    storedTimestampIfOnlyTimeDiffers(
      "proposal",
      stored,
      proposalSignBytes("c", proposal({ timestamp: later })),
    ),
    proposal().timestamp,
  );
  assert.equal(
    storedTimestampIfOnlyTimeDiffers(
      "proposal",
      stored,
      proposalSignBytes("c", proposal({ timestamp: later, polRound: -1 })),
    ),
    undefined,
  );
});

test("stored bytes that do not decode, or whose length prefix is wrong, never match", () => {
  const requested = voteSignBytes("c", vote());
  assert.equal(
    storedTimestampIfOnlyTimeDiffers("vote", new Uint8Array([5, 0xff, 0xff]), requested),
    undefined,
  );
  const wrongPrefix = new Uint8Array(requested);
  wrongPrefix[0] = wrongPrefix[0]! + 1;
  assert.equal(storedTimestampIfOnlyTimeDiffers("vote", wrongPrefix, requested), undefined);
  assert.equal(storedTimestampIfOnlyTimeDiffers("vote", new Uint8Array(0), requested), undefined);
});
