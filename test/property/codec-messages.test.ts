// decode(encode(x)) = x for the reactor wrappers (consensus, mempool, blocksync, PEX, MConnection
// packets, NodeInfo), every ABCI Request/Response variant, and the stored State.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import fc from "fast-check";
import { Request, Response } from "../../src/wire/generated/tendermint/abci/types.js";
import { Message as BlocksyncMessage } from "../../src/wire/generated/tendermint/blockchain/types.js";
import { Message as ConsensusMessage } from "../../src/wire/generated/tendermint/consensus/types.js";
import { Message as MempoolMessage } from "../../src/wire/generated/tendermint/mempool/types.js";
import { Packet } from "../../src/wire/generated/tendermint/p2p/conn.js";
import { Message as PexMessage } from "../../src/wire/generated/tendermint/p2p/pex.js";
import { DefaultNodeInfo } from "../../src/wire/generated/tendermint/p2p/types.js";
import { State } from "../../src/wire/generated/tendermint/state/types.js";
import * as arb from "./codec-arbitraries.js";

function roundTrips<T>(codec: arb.Codec<T>, arbitrary: fc.Arbitrary<T>, numRuns = 100): void {
  fc.assert(
    fc.property(arbitrary, (value) => {
      const bytes = codec.encode(value).finish();
      const decoded = codec.decode(bytes);
      assert.deepEqual(arb.normalise(decoded), arb.normalise(value));
      assert.equal(
        Buffer.from(codec.encode(decoded).finish()).toString("hex"),
        Buffer.from(bytes).toString("hex"),
      );
    }),
    { numRuns },
  );
}

/** One `{$case, [case]: value}` arbitrary per oneof member. */
function oneof<K extends string>(cases: Record<K, fc.Arbitrary<unknown>>) {
  return fc.oneof(
    ...Object.entries<fc.Arbitrary<unknown>>(cases).map(([name, a]) =>
      a.map((value) => ({ $case: name, [name]: value })),
    ),
  );
}

const bitArray = fc.record({ bits: arb.int64, elems: arb.smallList(arb.uint64) });
const empty = fc.constant({});

const consensusSum = oneof({
  newRoundStep: fc.record({
    height: arb.int64,
    round: arb.int32,
    step: arb.uint32,
    secondsSinceStartTime: arb.int64,
    lastCommitRound: arb.int32,
  }),
  newValidBlock: fc.record({
    height: arb.int64,
    round: arb.int32,
    blockPartSetHeader: arb.partSetHeader,
    blockParts: fc.option(bitArray, { nil: undefined }),
    isCommit: fc.boolean(),
  }),
  proposal: fc.record({ proposal: arb.proposal }),
  proposalPol: fc.record({ height: arb.int64, proposalPolRound: arb.int32, proposalPol: bitArray }),
  blockPart: fc.record({ height: arb.int64, round: arb.int32, part: arb.part }),
  vote: fc.record({ vote: fc.option(arb.vote, { nil: undefined }) }),
  hasVote: fc.record({ height: arb.int64, round: arb.int32, type: arb.signedMsgType, index: arb.int32 }),
  voteSetMaj23: fc.record({
    height: arb.int64,
    round: arb.int32,
    type: arb.signedMsgType,
    blockId: arb.blockId,
  }),
  voteSetBits: fc.record({
    height: arb.int64,
    round: arb.int32,
    type: arb.signedMsgType,
    blockId: arb.blockId,
    votes: bitArray,
  }),
});

const blocksyncSum = oneof({
  blockRequest: fc.record({ height: arb.int64 }),
  noBlockResponse: fc.record({ height: arb.int64 }),
  blockResponse: fc.record({ block: fc.option(arb.block, { nil: undefined }) }),
  statusRequest: empty,
  statusResponse: fc.record({ height: arb.int64, base: arb.int64 }),
});

const netAddress = fc.record({ id: arb.text, ip: arb.text, port: arb.uint32 });

const validatorUpdate = fc.record({ pubKey: arb.publicKey, power: arb.int64 });
const abciParams = fc.record({
  block: fc.option(fc.record({ maxBytes: arb.int64, maxGas: arb.int64 }), { nil: undefined }),
  evidence: fc.option(
    fc.record({
      maxAgeNumBlocks: arb.int64,
      maxAgeDuration: fc.record({ seconds: arb.int64, nanos: arb.int32 }),
      maxBytes: arb.int64,
    }),
    { nil: undefined },
  ),
  validator: fc.option(fc.record({ pubKeyTypes: arb.smallList(arb.text) }), { nil: undefined }),
  version: fc.option(fc.record({ appVersion: arb.uint64 }), { nil: undefined }),
});
const event = fc.record({
  type: arb.text,
  attributes: arb.smallList(fc.record({ key: arb.bytes(), value: arb.bytes(), index: fc.boolean() })),
});
const abciValidator = fc.record({ address: arb.bytes(20), power: arb.int64 });
const snapshot = fc.record({
  height: arb.uint64,
  format: arb.uint32,
  chunks: arb.uint32,
  hash: arb.bytes(),
  metadata: arb.bytes(),
});
const deliverTx = fc.record({
  code: arb.uint32,
  data: arb.bytes(),
  log: arb.text,
  info: arb.text,
  gasWanted: arb.int64,
  gasUsed: arb.int64,
  events: arb.smallList(event, 2),
  codespace: arb.text,
});

const requestValue = oneof({
  echo: fc.record({ message: arb.text }),
  flush: empty,
  info: fc.record({ version: arb.text, blockVersion: arb.uint64, p2pVersion: arb.uint64 }),
  setOption: fc.record({ key: arb.text, value: arb.text }),
  initChain: fc.record({
    time: arb.timestamp,
    chainId: arb.text,
    consensusParams: fc.option(abciParams, { nil: undefined }),
    validators: arb.smallList(validatorUpdate),
    appStateBytes: arb.bytes(),
    initialHeight: arb.int64,
  }),
  query: fc.record({ data: arb.bytes(), path: arb.text, height: arb.int64, prove: fc.boolean() }),
  beginBlock: fc.record({
    hash: arb.bytes(32),
    header: arb.header,
    lastCommitInfo: fc.record({
      round: arb.int32,
      votes: arb.smallList(fc.record({ validator: abciValidator, signedLastBlock: fc.boolean() })),
    }),
    byzantineValidators: arb.smallList(
      fc.record({
        type: fc.constantFrom(0, 1, 2),
        validator: abciValidator,
        height: arb.int64,
        time: arb.timestamp,
        totalVotingPower: arb.int64,
      }),
    ),
  }),
  checkTx: fc.record({ tx: arb.bytes(), type: fc.constantFrom(0, 1) }),
  deliverTx: fc.record({ tx: arb.bytes() }),
  endBlock: fc.record({ height: arb.int64 }),
  commit: empty,
  listSnapshots: empty,
  offerSnapshot: fc.record({ snapshot: fc.option(snapshot, { nil: undefined }), appHash: arb.bytes() }),
  loadSnapshotChunk: fc.record({ height: arb.uint64, format: arb.uint32, chunk: arb.uint32 }),
  applySnapshotChunk: fc.record({ index: arb.uint32, chunk: arb.bytes(), sender: arb.text }),
});

const responseValue = oneof({
  exception: fc.record({ error: arb.text }),
  echo: fc.record({ message: arb.text }),
  flush: empty,
  info: fc.record({
    data: arb.text,
    version: arb.text,
    appVersion: arb.uint64,
    lastBlockHeight: arb.int64,
    lastBlockAppHash: arb.bytes(),
  }),
  setOption: fc.record({ code: arb.uint32, log: arb.text, info: arb.text }),
  initChain: fc.record({
    consensusParams: fc.option(abciParams, { nil: undefined }),
    validators: arb.smallList(validatorUpdate),
    appHash: arb.bytes(),
  }),
  query: fc.record({
    code: arb.uint32,
    log: arb.text,
    info: arb.text,
    index: arb.int64,
    key: arb.bytes(),
    value: arb.bytes(),
    proofOps: fc.option(
      fc.record({ ops: arb.smallList(fc.record({ type: arb.text, key: arb.bytes(), data: arb.bytes() })) }),
      { nil: undefined },
    ),
    height: arb.int64,
    codespace: arb.text,
  }),
  beginBlock: fc.record({ events: arb.smallList(event) }),
  checkTx: fc.record({
    code: arb.uint32,
    data: arb.bytes(),
    log: arb.text,
    info: arb.text,
    gasWanted: arb.int64,
    gasUsed: arb.int64,
    events: arb.smallList(event, 2),
    codespace: arb.text,
    sender: arb.text,
    priority: arb.int64,
    mempoolError: arb.text,
  }),
  deliverTx,
  endBlock: fc.record({
    validatorUpdates: arb.smallList(validatorUpdate),
    consensusParamUpdates: fc.option(abciParams, { nil: undefined }),
    events: arb.smallList(event, 2),
  }),
  commit: fc.record({ data: arb.bytes(), retainHeight: arb.int64 }),
  listSnapshots: fc.record({ snapshots: arb.smallList(snapshot) }),
  offerSnapshot: fc.record({ result: fc.constantFrom(0, 1, 2, 3, 4, 5) }),
  loadSnapshotChunk: fc.record({ chunk: arb.bytes() }),
  applySnapshotChunk: fc.record({
    result: fc.constantFrom(0, 1, 2, 3, 4, 5),
    refetchChunks: arb.smallList(arb.uint32),
    rejectSenders: arb.smallList(arb.text),
  }),
});

describe("reactor wrapper codecs round-trip", () => {
  it("consensus Message, every variant", () =>
    roundTrips(ConsensusMessage, fc.record({ sum: consensusSum }) as fc.Arbitrary<ConsensusMessage>, 300));
  it("mempool Message", () =>
    roundTrips(
      MempoolMessage,
      fc.record({
        sum: fc.record({
          $case: fc.constant("txs" as const),
          txs: fc.record({ txs: arb.smallList(arb.bytes(80), 4) }),
        }),
      }),
    ));
  it("blocksync Message, every variant", () =>
    roundTrips(BlocksyncMessage, fc.record({ sum: blocksyncSum }) as fc.Arbitrary<BlocksyncMessage>, 100));
  it("PEX Message", () =>
    roundTrips(
      PexMessage,
      fc.record({
        sum: oneof({ pexRequest: empty, pexAddrs: fc.record({ addrs: arb.smallList(netAddress) }) }),
      }) as fc.Arbitrary<PexMessage>,
    ));
  it("MConnection Packet", () =>
    roundTrips(
      Packet,
      fc.record({
        sum: oneof({
          packetPing: empty,
          packetPong: empty,
          packetMsg: fc.record({ channelId: arb.int32, eof: fc.boolean(), data: arb.bytes(1024) }),
        }),
      }) as fc.Arbitrary<Packet>,
    ));
  it("DefaultNodeInfo", () =>
    roundTrips(
      DefaultNodeInfo,
      fc.record({
        protocolVersion: fc.record({ p2p: arb.uint64, block: arb.uint64, app: arb.uint64 }),
        defaultNodeId: arb.text,
        listenAddr: arb.text,
        network: arb.text,
        version: arb.text,
        channels: arb.bytes(16),
        moniker: arb.text,
        other: fc.record({ txIndex: arb.text, rpcAddress: arb.text }),
      }),
    ));
});

describe("ABCI codecs round-trip", () => {
  it("Request, every variant", () =>
    roundTrips(Request, fc.record({ value: requestValue }) as fc.Arbitrary<Request>, 400));
  it("Response, every variant", () =>
    roundTrips(Response, fc.record({ value: responseValue }) as fc.Arbitrary<Response>, 400));
});

describe("state codec round-trips", () => {
  it("State", () =>
    roundTrips(
      State,
      fc.record({
        version: fc.record({
          consensus: fc.record({ block: arb.uint64, app: arb.uint64 }),
          software: arb.text,
        }),
        chainId: arb.text,
        initialHeight: arb.int64,
        lastBlockHeight: arb.int64,
        lastBlockId: arb.blockId,
        lastBlockTime: arb.timestamp,
        nextValidators: fc.option(arb.validatorSet, { nil: undefined }),
        validators: fc.option(arb.validatorSet, { nil: undefined }),
        lastValidators: fc.option(arb.validatorSet, { nil: undefined }),
        lastHeightValidatorsChanged: arb.int64,
        consensusParams: arb.consensusParams,
        lastHeightConsensusParamsChanged: arb.int64,
        lastResultsHash: arb.hash,
        appHash: arb.bytes(),
      }),
      50,
    ));
});
