// Golden JSON of the tendermint form: the exact text a v0.34 node writes for representative
// values (field order, int64 as strings, HexBytes upper hex, []byte base64, trimmed RFC 3339,
// Go's zero time, jsonpb ABCI responses, omitempty, Go's escaping). Expected texts are written
// by hand from reference §1.4–§1.6 and public v0.34 samples.
import assert from "node:assert/strict";
import { test } from "node:test";
import { tendermintJsonEncoder as enc } from "../../src/rpc/json/index.js";
import { BLOCK, BLOCK_ID, bytes, DELIVER_TX, HEADER, KEY, TIME, utf8 } from "./rpc-json-fixtures.js";

const KEY_B64 = "AQEBAQEBAQEBAQEBAQEBAQEBAQEBAQEBAQEBAQEBAQE=";
const HEADER_JSON =
  '{"version":{"block":"11"},"chain_id":"test-chain","height":"2","time":"2020-01-01T00:00:00.52Z",' +
  '"last_block_id":{"hash":"AAAA","parts":{"total":1,"hash":"BBBB"}},"last_commit_hash":"0102",' +
  '"data_hash":"0304","validators_hash":"0506","next_validators_hash":"0506","consensus_hash":"0708",' +
  '"app_hash":"","last_results_hash":"","evidence_hash":"","proposer_address":"0A0B"}';
const LAST_COMMIT_JSON =
  '{"height":"1","round":0,"block_id":{"hash":"AAAA","parts":{"total":1,"hash":"BBBB"}},"signatures":[' +
  '{"block_id_flag":2,"validator_address":"0A0B","timestamp":"2020-01-01T00:00:00Z","signature":"AQI="},' +
  '{"block_id_flag":1,"validator_address":"","timestamp":"0001-01-01T00:00:00Z","signature":null}]}';
const BLOCK_JSON = `{"header":${HEADER_JSON},"data":{"txs":["a2V5PXZhbHVl"]},"evidence":{"evidence":[]},"last_commit":${LAST_COMMIT_JSON}}`;

test("block: block_id with parts, data.txs base64, evidence list object, CommitSigs", () => {
  assert.equal(
    enc.encodeResult("block", { blockId: BLOCK_ID, block: BLOCK }),
    `{"block_id":{"hash":"ABCD","parts":{"total":1,"hash":"EF01"}},"block":${BLOCK_JSON}}`,
  );
});

test("block_by_hash of an unknown hash: an empty block_id and a null block", () => {
  assert.equal(
    enc.encodeResult("block_by_hash", { blockId: undefined, block: undefined }),
    '{"block_id":{"hash":"","parts":{"total":0,"hash":""}},"block":null}',
  );
});

test("blockchain: block_size and num_txs as strings", () => {
  const meta = { blockId: BLOCK_ID, blockSize: 573n, header: HEADER, numTxs: 1n };
  assert.equal(
    enc.encodeResult("blockchain", { lastHeight: 2n, blockMetas: [meta] }),
    `{"last_height":"2","block_metas":[{"block_id":{"hash":"ABCD","parts":{"total":1,"hash":"EF01"}},"block_size":"573","header":${HEADER_JSON},"num_txs":"1"}]}`,
  );
});

test("commit: signed_header and canonical", () => {
  assert.equal(
    enc.encodeResult("commit", {
      signedHeader: { header: HEADER, commit: BLOCK.lastCommit },
      canonical: false,
    }),
    `{"signed_header":{"header":${HEADER_JSON},"commit":${LAST_COMMIT_JSON}},"canonical":false}`,
  );
});

test("block_results: jsonpb tx results (code number, data null, gas strings), null empty lists, Sum pub_key", () => {
  const result = {
    height: 2n,
    txsResults: [DELIVER_TX],
    beginBlockEvents: [],
    endBlockEvents: [],
    validatorUpdates: [{ pubKey: { sum: { $case: "ed25519" as const, ed25519: KEY } }, power: 10n }],
    consensusParamUpdates: undefined,
  };
  assert.equal(
    enc.encodeResult("block_results", result),
    '{"height":"2","txs_results":[{"code":0,"data":null,"log":"ok","info":"","gas_wanted":"1","gas_used":"0",' +
      '"events":[{"type":"app","attributes":[{"key":"Y3JlYXRvcg==","value":"Q29zbW9zaGk=","index":true}]}],"codespace":""}],' +
      '"begin_block_events":null,"end_block_events":null,' +
      `"validator_updates":[{"pub_key":{"Sum":{"type":"tendermint.crypto.PublicKey_Ed25519","value":{"ed25519":"${KEY_B64}"}}},"power":"10"}],` +
      '"consensus_param_updates":null}',
  );
});

test("block_results of an empty block: every list null", () => {
  const empty = {
    height: 3n,
    txsResults: [],
    beginBlockEvents: [],
    endBlockEvents: [],
    validatorUpdates: [],
    consensusParamUpdates: undefined,
  };
  assert.equal(
    enc.encodeResult("block_results", empty),
    '{"height":"3","txs_results":null,"begin_block_events":null,"end_block_events":null,"validator_updates":null,"consensus_param_updates":null}',
  );
});

test("status: tendermint/ key type, hashes upper hex, heights strings, channels hex", () => {
  const status = {
    nodeInfo: {
      protocolVersion: { p2p: 8n, block: 11n, app: 1n },
      id: "3708b1aa381d62e899e15e2952c931c7fd31ea39",
      listenAddr: "tcp://0.0.0.0:26656",
      network: "test-chain",
      version: "0.34.24",
      channels: "40202122233038606100",
      moniker: "node0",
      other: { txIndex: "on", rpcAddress: "tcp://127.0.0.1:26657" },
    },
    syncInfo: {
      latestBlockHash: BLOCK_ID.hash,
      latestAppHash: bytes(0, 0, 0, 0, 0, 0, 0, 1),
      latestBlockHeight: 2n,
      latestBlockTime: TIME,
      earliestBlockHash: bytes(0x12),
      earliestAppHash: new Uint8Array(0),
      earliestBlockHeight: 1n,
      earliestBlockTime: { seconds: 1577836799n, nanos: 100 },
      catchingUp: false,
    },
    validatorInfo: { address: bytes(0x0a, 0x0b), pubKey: KEY, votingPower: 10n },
  };
  assert.equal(
    enc.encodeResult("status", status),
    '{"node_info":{"protocol_version":{"p2p":"8","block":"11","app":"1"},"id":"3708b1aa381d62e899e15e2952c931c7fd31ea39",' +
      '"listen_addr":"tcp://0.0.0.0:26656","network":"test-chain","version":"0.34.24","channels":"40202122233038606100",' +
      '"moniker":"node0","other":{"tx_index":"on","rpc_address":"tcp://127.0.0.1:26657"}},' +
      '"sync_info":{"latest_block_hash":"ABCD","latest_app_hash":"0000000000000001","latest_block_height":"2",' +
      '"latest_block_time":"2020-01-01T00:00:00.52Z","earliest_block_hash":"12","earliest_app_hash":"",' +
      '"earliest_block_height":"1","earliest_block_time":"2019-12-31T23:59:59.0000001Z","catching_up":false},' +
      `"validator_info":{"address":"0A0B","pub_key":{"type":"tendermint/PubKeyEd25519","value":"${KEY_B64}"},"voting_power":"10"}}`,
  );
});

test("validators and consensus_params (omitempty scalars, version {})", () => {
  const v = {
    address: bytes(0x0a),
    pubKey: { sum: { $case: "ed25519" as const, ed25519: KEY } },
    votingPower: 10n,
    proposerPriority: -5n,
  };
  assert.equal(
    enc.encodeResult("validators", { blockHeight: 3n, validators: [v], count: 1, total: 1 }),
    `{"block_height":"3","validators":[{"address":"0A","pub_key":{"type":"tendermint/PubKeyEd25519","value":"${KEY_B64}"},"voting_power":"10","proposer_priority":"-5"}],"count":"1","total":"1"}`,
  );
  const params = {
    block: { maxBytes: 22020096n, maxGas: -1n, timeIotaMs: 1000n },
    evidence: {
      maxAgeNumBlocks: 100000n,
      maxAgeDuration: { seconds: 172800n, nanos: 0 },
      maxBytes: 1048576n,
    },
    validator: { pubKeyTypes: ["ed25519"] },
    version: { appVersion: 0n },
  };
  assert.equal(
    enc.encodeResult("consensus_params", { blockHeight: 3n, consensusParams: params }),
    '{"block_height":"3","consensus_params":{"block":{"max_bytes":"22020096","max_gas":"-1","time_iota_ms":"1000"},' +
      '"evidence":{"max_age_num_blocks":"100000","max_age_duration":"172800000000000","max_bytes":"1048576"},' +
      '"validator":{"pub_key_types":["ed25519"]},"version":{}}}',
  );
});

test("broadcast routes, check_tx, broadcast_tx_commit", () => {
  const hash = "A7FC574491B18ADD8E3DD60E7442CB34D90A4862E30E9E9B5412154EBFB0E100";
  assert.equal(
    enc.encodeResult("broadcast_tx_sync", { code: 0, data: new Uint8Array(0), log: "", codespace: "", hash }),
    `{"code":0,"data":"","log":"","codespace":"","hash":"${hash}"}`,
  );
  const check = { ...DELIVER_TX, events: [], sender: "", priority: 0n, mempoolError: "" };
  assert.equal(
    enc.encodeResult("check_tx", check),
    '{"code":0,"data":null,"log":"ok","info":"","gas_wanted":"1","gas_used":"0","events":[],"codespace":"","sender":"","priority":"0","mempoolError":""}',
  );
  assert.equal(
    enc.encodeResult("broadcast_tx_commit", {
      checkTx: { code: 5, log: "bad" },
      deliverTx: {},
      hash,
      height: 0n,
    }),
    '{"check_tx":{"code":5,"data":null,"log":"bad","info":"","gas_wanted":"0","gas_used":"0","events":[],"codespace":"","sender":"","priority":"0","mempoolError":""},' +
      `"deliver_tx":{"code":0,"data":null,"log":"","info":"","gas_wanted":"0","gas_used":"0","events":[],"codespace":""},"hash":"${hash}","height":"0"}`,
  );
});

test("tx with proof: index a number, proof {root_hash hex, data base64, proof {total, index strings, aunts []}}", () => {
  const tx = utf8("key=value");
  const view = {
    hash: bytes(0xc0, 0xde),
    height: 2n,
    index: 0,
    txResult: DELIVER_TX,
    tx,
    proof: {
      rootHash: bytes(0xee),
      data: tx,
      proof: { total: 1n, index: 0n, leafHash: bytes(1), aunts: [] },
    },
  };
  assert.equal(
    enc.encodeResult("tx", view),
    '{"hash":"C0DE","height":"2","index":0,"tx_result":{"code":0,"data":null,"log":"ok","info":"","gas_wanted":"1","gas_used":"0",' +
      '"events":[{"type":"app","attributes":[{"key":"Y3JlYXRvcg==","value":"Q29zbW9zaGk=","index":true}]}],"codespace":""},' +
      '"tx":"a2V5PXZhbHVl","proof":{"root_hash":"EE","data":"a2V5PXZhbHVl","proof":{"total":"1","index":"0","leaf_hash":"AQ==","aunts":[]}}}',
  );
  const { proof: _p, ...unproved } = view;
  assert.ok(!enc.encodeResult("tx", unproved).includes('"proof"'));
});

test("abci_info (omitempty plain codec) and abci_query (jsonpb: base64, proofOps null)", () => {
  assert.equal(
    enc.encodeResult("abci_info", {
      response: {
        data: '{"size":0}',
        version: "0.17.0",
        appVersion: 1n,
        lastBlockHeight: 0n,
        lastBlockAppHash: new Uint8Array(0),
      },
    }),
    '{"response":{"data":"{\\"size\\":0}","version":"0.17.0","app_version":"1"}}',
  );
  assert.equal(
    enc.encodeResult("abci_query", {
      response: {
        code: 0,
        log: "exists",
        info: "",
        index: 0n,
        key: utf8("key"),
        value: utf8("value"),
        proofOps: undefined,
        height: 2n,
        codespace: "",
      },
    }),
    '{"response":{"code":0,"log":"exists","info":"","index":"0","key":"a2V5","value":"dmFsdWU=","proofOps":null,"height":"2","codespace":""}}',
  );
});

test("genesis_chunked: chunk and total as strings; unconfirmed txs; broadcast_evidence base64 hash", () => {
  assert.equal(
    enc.encodeResult("genesis_chunked", { chunk: 0, total: 1, data: utf8("{}") }),
    '{"chunk":"0","total":"1","data":"e30="}',
  );
  assert.equal(
    enc.encodeResult("num_unconfirmed_txs", { nTxs: 1, total: 1, totalBytes: 9, txs: null }),
    '{"n_txs":"1","total":"1","total_bytes":"9","txs":null}',
  );
  assert.equal(
    enc.encodeResult("unconfirmed_txs", { nTxs: 1, total: 1, totalBytes: 9, txs: [utf8("key=value")] }),
    '{"n_txs":"1","total":"1","total_bytes":"9","txs":["a2V5PXZhbHVl"]}',
  );
  assert.equal(enc.encodeResult("broadcast_evidence", { hash: bytes(1, 2, 3) }), '{"hash":"AQID"}');
});

test("Go's HTML-safe escaping of <, > and & in strings", () => {
  assert.equal(
    enc.encodeResult("broadcast_tx_sync", { code: 1, data: "", log: "<b>&</b>", codespace: "", hash: "AB" }),
    '{"code":1,"data":"","log":"\\u003cb\\u003e\\u0026\\u003c/b\\u003e","codespace":"","hash":"AB"}',
  );
});

test("events: Tx drops zero fields (plain codec), NewBlock, Vote, RoundState, NewRound", () => {
  const txResult = { height: 2n, index: 0, tx: utf8("key=value"), result: DELIVER_TX };
  assert.equal(
    enc.encodeEventData("Tx", { txResult }),
    '{"type":"tendermint/event/Tx","value":{"TxResult":{"height":"2","tx":"a2V5PXZhbHVl","result":{"log":"ok","gas_wanted":"1",' +
      '"events":[{"type":"app","attributes":[{"key":"Y3JlYXRvcg==","value":"Q29zbW9zaGk=","index":true}]}]}}}}',
  );
  assert.equal(
    enc.encodeEventData("NewBlock", {
      block: BLOCK,
      resultBeginBlock: { events: [] },
      resultEndBlock: { validatorUpdates: [], events: [] },
    }),
    `{"type":"tendermint/event/NewBlock","value":{"block":${BLOCK_JSON},"result_begin_block":{},"result_end_block":{"validator_updates":null}}}`,
  );
  assert.equal(
    enc.encodeEventData("NewBlockHeader", {
      header: HEADER,
      numTxs: 1n,
      resultBeginBlock: { events: [] },
      resultEndBlock: { validatorUpdates: [], events: [] },
    }),
    `{"type":"tendermint/event/NewBlockHeader","value":{"header":${HEADER_JSON},"num_txs":"1","result_begin_block":{},"result_end_block":{"validator_updates":null}}}`,
  );
  const vote = {
    type: 1,
    height: 2n,
    round: 0,
    blockId: BLOCK_ID,
    timestamp: TIME,
    validatorAddress: bytes(0x0a, 0x0b),
    validatorIndex: 0,
    signature: bytes(1, 2),
  };
  assert.equal(
    enc.encodeEventData("Vote", { vote }),
    '{"type":"tendermint/event/Vote","value":{"Vote":{"type":1,"height":"2","round":0,"block_id":{"hash":"ABCD","parts":{"total":1,"hash":"EF01"}},' +
      '"timestamp":"2020-01-01T00:00:00.52Z","validator_address":"0A0B","validator_index":0,"signature":"AQI="}}}',
  );
  assert.equal(
    enc.encodeEventData("NewRoundStep", { height: 2n, round: 0, step: "RoundStepPropose" }),
    '{"type":"tendermint/event/RoundState","value":{"height":"2","round":0,"step":"RoundStepPropose"}}',
  );
  assert.equal(
    enc.encodeEventData("NewRound", {
      height: 2n,
      round: 1,
      step: "RoundStepNewRound",
      proposer: { address: bytes(0x0a), index: 0 },
    }),
    '{"type":"tendermint/event/NewRound","value":{"height":"2","round":1,"step":"RoundStepNewRound","proposer":{"address":"0A","index":0}}}',
  );
  assert.equal(
    enc.encodeEventData("CompleteProposal", {
      height: 2n,
      round: 0,
      step: "RoundStepPropose",
      blockId: BLOCK_ID,
    }),
    '{"type":"tendermint/event/CompleteProposal","value":{"height":"2","round":0,"step":"RoundStepPropose","block_id":{"hash":"ABCD","parts":{"total":1,"hash":"EF01"}}}}',
  );
  const validator = {
    address: bytes(0x0a),
    pubKey: { sum: { $case: "ed25519" as const, ed25519: KEY } },
    votingPower: 0n,
    proposerPriority: 0n,
  };
  assert.equal(
    enc.encodeEventData("ValidatorSetUpdates", { validatorUpdates: [validator] }),
    `{"type":"tendermint/event/ValidatorSetUpdates","value":{"validator_updates":[{"address":"0A","pub_key":{"type":"tendermint/PubKeyEd25519","value":"${KEY_B64}"},"voting_power":"0","proposer_priority":"0"}]}}`,
  );
});

test("duplicate vote evidence: typed envelope with Go's untagged field names", () => {
  const vote = (h: number) => ({
    type: 1,
    height: 2n,
    round: 0,
    blockId: { hash: bytes(h), partSetHeader: { total: 1, hash: bytes(h) } },
    timestamp: TIME,
    validatorAddress: bytes(0x0a),
    validatorIndex: 0,
    signature: bytes(h),
  });
  const block = {
    ...BLOCK,
    evidence: {
      evidence: [
        {
          sum: {
            $case: "duplicateVoteEvidence" as const,
            duplicateVoteEvidence: {
              voteA: vote(1),
              voteB: vote(2),
              totalVotingPower: 10n,
              validatorPower: 10n,
              timestamp: TIME,
            },
          },
        },
      ],
    },
  };
  const text = enc.encodeResult("block", { blockId: BLOCK_ID, block });
  assert.ok(
    text.includes(
      '"evidence":{"evidence":[{"type":"tendermint/DuplicateVoteEvidence","value":{"vote_a":{"type":1,"height":"2","round":0,"block_id":{"hash":"01","parts":{"total":1,"hash":"01"}},' +
        '"timestamp":"2020-01-01T00:00:00.52Z","validator_address":"0A","validator_index":0,"signature":"AQ=="},"vote_b":',
    ),
    text,
  );
  assert.ok(
    text.includes('"TotalVotingPower":"10","ValidatorPower":"10","Timestamp":"2020-01-01T00:00:00.52Z"}}]}'),
    text,
  );
});
