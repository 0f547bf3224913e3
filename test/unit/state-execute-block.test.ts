import assert from "node:assert/strict";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, describe, it } from "node:test";
import { KvstoreApplication } from "../../src/abci/apps/kvstore.js";
import { NoopApplication } from "../../src/abci/apps/noop.js";
import { responseCommit, responseDeliverTx, responseEndBlock } from "../../src/abci/apps/responses.js";
import { InProcessAbciClient } from "../../src/abci/client/in-process-client.js";
import { AbciError } from "../../src/abci/errors.js";
import { executeBlock } from "../../src/abci/execute-block.js";
import { StateError } from "../../src/state/errors.js";
import { applyInitChain, stateFromGenesis } from "../../src/state/genesis-state.js";
import { wrapDuplicateVoteEvidence } from "../../src/types/evidence.js";
import { ValidatorSet } from "../../src/types/validator-set.js";
import {
  EvidenceType,
  type RequestBeginBlock,
  type RequestDeliverTx,
  type ResponseEndBlock,
} from "../../src/wire/generated/tendermint/abci/types.js";
import type { State } from "../../src/wire/generated/tendermint/state/types.js";
import { SignedMsgType } from "../../src/wire/generated/tendermint/types/types.js";
import { lastResultsHash } from "../../src/wire/hashes.js";
import { buildBlock, testGenesis, testKey } from "../fixtures/abci-test-app/test-chain.js";

const hex = (b: Uint8Array) => Buffer.from(b).toString("hex");
const tx = (s: string) => new TextEncoder().encode(s);
const dirs: string[] = [];
after(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});
const kvDir = () => {
  const d = mkdtempSync(join(tmpdir(), "rxbft-state-"));
  dirs.push(d);
  return d;
};

/** A noop app that records calls and can be told what EndBlock returns or where to fail. */
class RecordingApp extends NoopApplication {
  calls: string[] = [];
  beginBlocks: RequestBeginBlock[] = [];
  endBlockAnswer: ResponseEndBlock = responseEndBlock();
  failOnDeliver = false;
  override beginBlock(req: RequestBeginBlock) {
    this.calls.push("beginBlock");
    this.beginBlocks.push(req);
    return super.beginBlock(req);
  }
  override deliverTx(req: RequestDeliverTx) {
    this.calls.push("deliverTx");
    if (this.failOnDeliver) throw new Error("disk on fire");
    return responseDeliverTx({ code: req.tx[0] === 0x21 ? 5 : 0, data: req.tx });
  }
  override endBlock() {
    this.calls.push("endBlock");
    return this.endBlockAnswer;
  }
  override commit() {
    this.calls.push("commit");
    return responseCommit({ data: Uint8Array.of(this.calls.length) });
  }
}

function genesisState(validators = 2): State {
  return applyInitChain(stateFromGenesis(testGenesis(validators)), {
    consensusParams: undefined,
    validators: [],
    appHash: new Uint8Array(0),
  });
}

async function run(app: NoopApplication, state: State, options: Parameters<typeof buildBlock>[1] = {}) {
  const client = new InProcessAbciClient(app);
  const { block, blockId } = buildBlock(state, options);
  return { ...(await executeBlock({ consensus: client.consensus }, state, block, blockId)), block, blockId };
}

describe("executeBlock", () => {
  it("runs BeginBlock, each DeliverTx, EndBlock, Commit in order and returns the next state", async () => {
    const app = new RecordingApp();
    const s0 = genesisState();
    const { state, responses, events, block, blockId } = await run(app, s0, {
      txs: [tx("a"), tx("!bad"), tx("c")],
    });
    assert.deepEqual(app.calls, ["beginBlock", "deliverTx", "deliverTx", "deliverTx", "endBlock", "commit"]);
    assert.equal(state.lastBlockHeight, 1n);
    assert.deepEqual(state.lastBlockId, blockId);
    assert.deepEqual(state.lastBlockTime, block.header.time);
    assert.equal(hex(state.appHash), "06");
    assert.equal(hex(state.lastResultsHash), hex(lastResultsHash(responses.deliverTxs)));
    assert.equal(responses.deliverTxs[1]!.code, 5);
    assert.equal(events.txs.length, 3);
    assert.equal(events.txs[2]!.index, 2);
    assert.equal(hex(events.txs[2]!.tx), hex(tx("c")));
    // Validators shift: next becomes current, current becomes last.
    assert.deepEqual(state.validators, s0.nextValidators);
    assert.deepEqual(state.lastValidators, s0.validators);
  });

  it("sends the block hash, header, and an empty last commit at the initial height", async () => {
    const app = new RecordingApp();
    const { blockId, block } = await run(app, genesisState());
    const req = app.beginBlocks[0]!;
    assert.equal(hex(req.hash), hex(blockId.hash));
    assert.deepEqual(req.header, block.header);
    assert.deepEqual(req.lastCommitInfo, { round: 0, votes: [] });
  });

  it("lists every previous validator in set order with its signed flag", async () => {
    const app = new RecordingApp();
    const s1 = (await run(app, genesisState(3))).state;
    await run(app, s1, { absent: [1] });
    const info = app.beginBlocks[1]!.lastCommitInfo;
    const lastSet = s1.lastValidators!.validators;
    assert.equal(info.votes.length, 3);
    assert.deepEqual(
      info.votes.map((v) => [hex(v.validator!.address), v.validator!.power, v.signedLastBlock]),
      lastSet.map((v, i) => [hex(v.address), v.votingPower, i !== 1]),
    );
  });

  it("passes committed duplicate-vote evidence as byzantine validators", async () => {
    const app = new RecordingApp();
    const s0 = genesisState();
    const offender = s0.validators!.validators[0]!;
    const vote = (hash: number) => ({
      type: SignedMsgType.SIGNED_MSG_TYPE_PREVOTE,
      height: 1n,
      round: 0,
      blockId: { hash: new Uint8Array(32).fill(hash), partSetHeader: { total: 1, hash: new Uint8Array(32) } },
      timestamp: { seconds: 1n, nanos: 0 },
      validatorAddress: offender.address,
      validatorIndex: 0,
      signature: new Uint8Array(64),
    });
    const evidence = wrapDuplicateVoteEvidence({
      voteA: vote(1),
      voteB: vote(2),
      totalVotingPower: 20n,
      validatorPower: 10n,
      timestamp: { seconds: 5n, nanos: 0 },
    });
    await run(app, s0, { evidence: [evidence] });
    const byz = app.beginBlocks[0]!.byzantineValidators;
    assert.equal(byz.length, 1);
    assert.equal(byz[0]!.type, EvidenceType.DUPLICATE_VOTE);
    assert.equal(hex(byz[0]!.validator!.address), hex(offender.address));
    assert.equal(byz[0]!.validator!.power, 10n);
    assert.equal(byz[0]!.totalVotingPower, 20n);
  });

  it("applies EndBlock validator updates to NextValidators: in force at H+2", async () => {
    const app = new RecordingApp();
    const newcomer = testKey(7).publicKey;
    app.endBlockAnswer = responseEndBlock({
      validatorUpdates: [{ pubKey: { sum: { $case: "ed25519", ed25519: newcomer } }, power: 30n }],
    });
    const s1 = (await run(app, genesisState())).state; // updates returned at H=1
    app.endBlockAnswer = responseEndBlock();
    assert.equal(s1.lastHeightValidatorsChanged, 3n);
    assert.equal(s1.validators!.validators.length, 2, "H+1 still signed by the old set");
    assert.equal(s1.nextValidators!.validators.length, 3, "H+2's set has the newcomer");
    assert.equal(s1.nextValidators!.validators[0]!.votingPower, 30n, "sorted by power");
    const s2 = (await run(app, s1)).state;
    assert.equal(s2.validators!.validators.length, 3);
    assert.equal(s2.lastValidators!.validators.length, 2);
    // The proposer rotates as the set's priorities say (one increment per block).
    const expected = ValidatorSet.fromProto(s1.nextValidators!).incrementProposerPriority(1).toProto();
    assert.deepEqual(s2.nextValidators, expected);
  });

  it("applies consensus param updates from the next height", async () => {
    const app = new RecordingApp();
    const s0 = genesisState();
    app.endBlockAnswer = responseEndBlock({
      consensusParamUpdates: {
        block: { maxBytes: 2_000_000n, maxGas: 5000n },
        evidence: undefined,
        validator: undefined,
        version: { appVersion: 7n },
      },
    });
    const { state } = await run(app, s0);
    assert.equal(state.consensusParams.block.maxBytes, 2_000_000n);
    assert.equal(state.consensusParams.block.maxGas, 5000n);
    assert.equal(state.consensusParams.block.timeIotaMs, s0.consensusParams.block.timeIotaMs);
    assert.equal(state.lastHeightConsensusParamsChanged, 2n);
    assert.equal(state.version.consensus.app, 7n);
  });

  for (const [what, answer, code] of [
    [
      "a negative power",
      responseEndBlock({
        validatorUpdates: [
          { pubKey: { sum: { $case: "ed25519", ed25519: testKey(8).publicKey } }, power: -1n },
        ],
      }),
      "STATE_INVALID_VALIDATOR_UPDATE",
    ],
    [
      "a key type the params do not allow",
      responseEndBlock({
        validatorUpdates: [
          { pubKey: { sum: { $case: "secp256k1", secp256k1: new Uint8Array(33).fill(2) } }, power: 1n },
        ],
      }),
      "STATE_INVALID_VALIDATOR_UPDATE",
    ],
    [
      "the removal of an unknown validator",
      responseEndBlock({
        validatorUpdates: [
          { pubKey: { sum: { $case: "ed25519", ed25519: testKey(9).publicKey } }, power: 0n },
        ],
      }),
      "STATE_INVALID_VALIDATOR_UPDATE",
    ],
    [
      "invalid params",
      responseEndBlock({
        consensusParamUpdates: {
          block: { maxBytes: 0n, maxGas: -1n },
          evidence: undefined,
          validator: undefined,
          version: undefined,
        },
      }),
      "STATE_INVALID_PARAMS_UPDATE",
    ],
  ] as const) {
    it(`stops before Commit when EndBlock returns ${what}`, async () => {
      const app = new RecordingApp();
      app.endBlockAnswer = answer;
      await assert.rejects(
        run(app, genesisState()),
        (e: unknown) => e instanceof StateError && e.code === code && /^height 1: /.test(e.message),
      );
      assert.ok(!app.calls.includes("commit"), "the block was not committed");
    });
  }

  it("fails without a new state when the app fails mid-block", async () => {
    const app = new RecordingApp();
    app.failOnDeliver = true;
    await assert.rejects(
      run(app, genesisState(), { txs: [tx("x")] }),
      (e: unknown) =>
        e instanceof AbciError && e.connection === "consensus" && /disk on fire/.test(e.message),
    );
    assert.ok(!app.calls.includes("commit"));
  });

  it("refuses a block that does not follow the state", async () => {
    const s0 = genesisState();
    const { block, blockId } = buildBlock({ ...s0, lastBlockHeight: 4n, lastValidators: s0.validators });
    await assert.rejects(
      executeBlock({ consensus: new InProcessAbciClient(new RecordingApp()).consensus }, s0, block, blockId),
      (e: unknown) => e instanceof StateError && e.code === "STATE_WRONG_BLOCK",
    );
  });

  it("saves the responses before Commit and prunes below the app's retain height", async () => {
    const app = await KvstoreApplication.open(kvDir(), { retainBlocks: 1n });
    const client = new InProcessAbciClient(app);
    const order: string[] = [];
    const pruned: bigint[] = [];
    let state = genesisState();
    for (let h = 0; h < 3; h++) {
      const { block, blockId } = buildBlock(state, { txs: [tx(`k${h}=v${h}`)] });
      const result = await executeBlock(
        {
          consensus: client.consensus,
          saveAbciResponses: async (height) => {
            order.push(`save ${height}`);
          },
          beforeCommit: async () => {
            order.push("lock");
          },
          afterCommit: async (_b, txs) => {
            order.push(`update ${txs.length}`);
          },
          pruneBlocks: async (h) => {
            pruned.push(h);
          },
        },
        state,
        block,
        blockId,
      );
      state = result.state;
      assert.equal(result.events.txs[0]!.result!.events[0]!.type, "app");
    }
    assert.deepEqual(order.slice(0, 3), ["save 1", "lock", "update 1"]);
    assert.deepEqual(pruned, [1n, 2n, 3n]);
    // kvstore's app hash after 3 pairs: zigzag varint of 3.
    assert.equal(hex(state.appHash), "0600000000000000");
    await client.close();
  });
});
