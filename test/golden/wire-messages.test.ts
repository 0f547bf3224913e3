// Reactor and connection messages against reference §10.6: each value encodes to exactly the
// listed bytes, and those bytes decode back to the same value.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { makeBlock } from "../../src/types/block.js";
import { zeroBlockId } from "../../src/types/block-id.js";
import { goZeroTime, timestampFromRfc3339 } from "../../src/types/time.js";
import { Message as BlocksyncMessage } from "../../src/wire/generated/tendermint/blockchain/types.js";
import { Message as ConsensusMessage } from "../../src/wire/generated/tendermint/consensus/types.js";
import { Message as MempoolMessage } from "../../src/wire/generated/tendermint/mempool/types.js";
import { Packet } from "../../src/wire/generated/tendermint/p2p/conn.js";
import { Message as PexMessage } from "../../src/wire/generated/tendermint/p2p/pex.js";
import { Message as StatesyncMessage } from "../../src/wire/generated/tendermint/statesync/types.js";
import { type BlockID, SignedMsgType } from "../../src/wire/generated/tendermint/types/types.js";

const hex = (b: Uint8Array) => Buffer.from(b).toString("hex");
const utf8 = (s: string) => new TextEncoder().encode(s);
const empty = new Uint8Array(0);
const MAX_INT64 = (1n << 63n) - 1n;

interface Codec<T> {
  encode(message: T): { finish(): Uint8Array };
  decode(bytes: Uint8Array): T;
}

function vector<T>(codec: Codec<T>, name: string, value: T, expected: string): void {
  it(name, () => {
    assert.equal(hex(codec.encode(value).finish()), expected);
    const decoded = codec.decode(Uint8Array.from(Buffer.from(expected, "hex")));
    assert.equal(hex(codec.encode(decoded).finish()), expected);
    assert.deepEqual(normalise(decoded), normalise(value));
  });
}

/** Decoded bytes are Buffers (views into the input); compare contents, not classes. */
function normalise(value: unknown): unknown {
  if (value instanceof Uint8Array) return hex(value);
  if (Array.isArray(value)) return value.map(normalise);
  if (value !== null && typeof value === "object")
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, normalise(v)]));
  return value;
}

describe("MConnection packets", () => {
  vector(Packet, "PacketPing", { sum: { $case: "packetPing", packetPing: {} } }, "0a00");
  vector(Packet, "PacketPong", { sum: { $case: "packetPong", packetPong: {} } }, "1200");
  vector(
    Packet,
    "PacketMsg",
    {
      sum: {
        $case: "packetMsg",
        packetMsg: { channelId: 1, eof: false, data: utf8("data transmitted over the wire") },
      },
    },
    "1a2208011a1e64617461207472616e736d6974746564206f766572207468652077697265",
  );
});

describe("PEX", () => {
  vector(PexMessage, "PexRequest", { sum: { $case: "pexRequest", pexRequest: {} } }, "0a00");
  vector(
    PexMessage,
    "PexAddrs",
    { sum: { $case: "pexAddrs", pexAddrs: { addrs: [{ id: "1", ip: "127.0.0.1", port: 9090 }] } } },
    "12130a110a013112093132372e302e302e31188247",
  );
});

describe("mempool", () => {
  vector(
    MempoolMessage,
    "tx 7b",
    { sum: { $case: "txs", txs: { txs: [Uint8Array.of(0x7b)] } } },
    "0a030a017b",
  );
  vector(
    MempoolMessage,
    "tx text",
    { sum: { $case: "txs", txs: { txs: [utf8("proto encoding in mempool")] } } },
    "0a1b0a1970726f746f20656e636f64696e6720696e206d656d706f6f6c",
  );
});

describe("blocksync", () => {
  vector(
    BlocksyncMessage,
    "BlockRequest 1",
    { sum: { $case: "blockRequest", blockRequest: { height: 1n } } },
    "0a020801",
  );
  vector(
    BlocksyncMessage,
    "BlockRequest max",
    { sum: { $case: "blockRequest", blockRequest: { height: MAX_INT64 } } },
    "0a0a08ffffffffffffffff7f",
  );
  vector(
    BlocksyncMessage,
    "NoBlockResponse 1",
    { sum: { $case: "noBlockResponse", noBlockResponse: { height: 1n } } },
    "12020801",
  );
  vector(
    BlocksyncMessage,
    "NoBlockResponse max",
    { sum: { $case: "noBlockResponse", noBlockResponse: { height: MAX_INT64 } } },
    "120a08ffffffffffffffff7f",
  );
  vector(BlocksyncMessage, "StatusRequest", { sum: { $case: "statusRequest", statusRequest: {} } }, "2200");
  vector(
    BlocksyncMessage,
    "StatusResponse 1 2",
    { sum: { $case: "statusResponse", statusResponse: { height: 1n, base: 2n } } },
    "2a0408011002",
  );
  vector(
    BlocksyncMessage,
    "StatusResponse max",
    { sum: { $case: "statusResponse", statusResponse: { height: MAX_INT64, base: MAX_INT64 } } },
    "2a1408ffffffffffffffff7f10ffffffffffffffff7f",
  );

  // MakeBlock(3, ["Hello World"], nil commit, no evidence): only version, height and the derived
  // data and evidence hashes are set (a nil commit has no hash); the zero time and the empty
  // last_block_id are still encoded.
  const block = makeBlock({
    chainId: "",
    height: 3n,
    time: goZeroTime(),
    lastBlockId: zeroBlockId(),
    validatorsHash: empty,
    nextValidatorsHash: empty,
    consensusHash: empty,
    appHash: empty,
    lastResultsHash: empty,
    proposerAddress: empty,
    txs: [utf8("Hello World")],
    evidence: [],
    lastCommit: undefined,
  });
  vector(
    BlocksyncMessage,
    "BlockResponse",
    { sum: { $case: "blockResponse", blockResponse: { block } } },
    "1a700a6e0a5b0a02080b1803220b088092b8c398feffffff012a0212003a20c4da88e876062aa1543400d50d0eaa0dac88096057949cfb7bca7f3a48c04bf96a20e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855120d0a0b48656c6c6f20576f726c641a00",
  );
});

describe("statesync", () => {
  vector(
    StatesyncMessage,
    "SnapshotsRequest",
    { sum: { $case: "snapshotsRequest", snapshotsRequest: {} } },
    "0a00",
  );
  vector(
    StatesyncMessage,
    "SnapshotsResponse",
    {
      sum: {
        $case: "snapshotsResponse",
        snapshotsResponse: {
          height: 1n,
          format: 2,
          chunks: 3,
          hash: utf8("chuck hash"),
          metadata: utf8("snapshot metadata"),
        },
      },
    },
    "1225080110021803220a636875636b20686173682a11736e617073686f74206d65746164617461",
  );
  vector(
    StatesyncMessage,
    "ChunkRequest",
    { sum: { $case: "chunkRequest", chunkRequest: { height: 1n, format: 2, index: 3 } } },
    "1a06080110021803",
  );
  vector(
    StatesyncMessage,
    "ChunkResponse",
    {
      sum: {
        $case: "chunkResponse",
        chunkResponse: { height: 1n, format: 2, index: 3, chunk: utf8("it's a chunk"), missing: false },
      },
    },
    "2214080110021803220c697427732061206368756e6b",
  );
});

describe("consensus (TestConsMsgsVectors)", () => {
  const text = utf8("add_more_exclamation_marks_code-");
  const date = timestampFromRfc3339("2018-08-30T12:00:00Z");
  const psh = { total: 1, hash: text };
  const blockId: BlockID = { hash: text, partSetHeader: psh };
  const bits = { bits: 1n, elems: [0n] };
  const hashHex = "6164645f6d6f72655f6578636c616d6174696f6e5f6d61726b735f636f64652d";
  // BlockID {hash, part_set_header {1, hash}} as it appears inside several messages
  const blockIdHex = `0a20${hashHex}122408011220${hashHex}`;

  vector(
    ConsensusMessage,
    "NewRoundStep",
    {
      sum: {
        $case: "newRoundStep",
        newRoundStep: { height: 1n, round: 1, step: 1, secondsSinceStartTime: 1n, lastCommitRound: 1 },
      },
    },
    "0a0a08011001180120012801",
  );
  vector(
    ConsensusMessage,
    "NewRoundStep max",
    {
      sum: {
        $case: "newRoundStep",
        newRoundStep: {
          height: MAX_INT64,
          round: 2147483647,
          step: 4294967295,
          secondsSinceStartTime: MAX_INT64,
          lastCommitRound: 2147483647,
        },
      },
    },
    "0a2608ffffffffffffffff7f10ffffffff0718ffffffff0f20ffffffffffffffff7f28ffffffff07",
  );
  vector(
    ConsensusMessage,
    "NewValidBlock",
    {
      sum: {
        $case: "newValidBlock",
        newValidBlock: { height: 1n, round: 1, blockPartSetHeader: psh, blockParts: bits, isCommit: false },
      },
    },
    "1231080110011a24080112206164645f6d6f72655f6578636c616d6174696f6e5f6d61726b735f636f64652d22050801120100",
  );
  vector(
    ConsensusMessage,
    "Proposal",
    {
      sum: {
        $case: "proposal",
        proposal: {
          proposal: {
            type: SignedMsgType.SIGNED_MSG_TYPE_PROPOSAL,
            height: 1n,
            round: 1,
            polRound: 1,
            blockId,
            timestamp: date,
            signature: utf8("add_more_exclamation"),
          },
        },
      },
    },
    `1a720a7008201001180120012a48${blockIdHex}320608c0b89fdc053a146164645f6d6f72655f6578636c616d6174696f6e`,
  );
  vector(
    ConsensusMessage,
    "ProposalPOL",
    {
      sum: {
        $case: "proposalPol",
        proposalPol: { height: 1n, proposalPolRound: 1, proposalPol: { bits: 0n, elems: [] } },
      },
    },
    "2206080110011a00",
  );
  vector(
    ConsensusMessage,
    "BlockPart",
    {
      sum: {
        $case: "blockPart",
        blockPart: {
          height: 1n,
          round: 1,
          part: { index: 1, bytes: utf8("test"), proof: { total: 1n, index: 1n, leafHash: text, aunts: [] } },
        },
      },
    },
    `2a36080110011a3008011204746573741a26080110011a20${hashHex}`,
  );
  vector(
    ConsensusMessage,
    "Vote",
    {
      sum: {
        $case: "vote",
        vote: {
          vote: {
            type: SignedMsgType.SIGNED_MSG_TYPE_PRECOMMIT,
            height: 1n,
            round: 0,
            blockId,
            timestamp: date,
            validatorAddress: utf8("add_more_exclamation"),
            validatorIndex: 1,
            signature: empty,
          },
        },
      },
    },
    `32700a6e080210012248${blockIdHex}2a0608c0b89fdc0532146164645f6d6f72655f6578636c616d6174696f6e3801`,
  );
  vector(
    ConsensusMessage,
    "HasVote",
    {
      sum: {
        $case: "hasVote",
        hasVote: { height: 1n, round: 1, type: SignedMsgType.SIGNED_MSG_TYPE_PREVOTE, index: 1 },
      },
    },
    "3a080801100118012001",
  );
  vector(
    ConsensusMessage,
    "HasVote max",
    {
      sum: {
        $case: "hasVote",
        hasVote: {
          height: MAX_INT64,
          round: 2147483647,
          type: SignedMsgType.SIGNED_MSG_TYPE_PREVOTE,
          index: 2147483647,
        },
      },
    },
    "3a1808ffffffffffffffff7f10ffffffff07180120ffffffff07",
  );
  vector(
    ConsensusMessage,
    "VoteSetMaj23",
    {
      sum: {
        $case: "voteSetMaj23",
        voteSetMaj23: { height: 1n, round: 1, type: SignedMsgType.SIGNED_MSG_TYPE_PREVOTE, blockId },
      },
    },
    `42500801100118012248${blockIdHex}`,
  );
  vector(
    ConsensusMessage,
    "VoteSetBits",
    {
      sum: {
        $case: "voteSetBits",
        voteSetBits: {
          height: 1n,
          round: 1,
          type: SignedMsgType.SIGNED_MSG_TYPE_PREVOTE,
          blockId,
          votes: bits,
        },
      },
    },
    `4a570801100118012248${blockIdHex}2a050801120100`,
  );
});
