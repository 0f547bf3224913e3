// Golden JSON of the seed form (the specification's shapes, rpc-forms.md): node/ key types,
// block data as a list, vote-shaped last_commit signatures, block_size a number, tx codes as
// strings, abci_query in hex strings, the seed consensus params, broadcast_evidence "".
import assert from "node:assert/strict";
import { test } from "node:test";
import { seedJsonEncoder as enc } from "../../src/rpc/json/index.js";
import { BLOCK, BLOCK_ID, DELIVER_TX, HEADER, KEY, utf8 } from "./rpc-json-fixtures.js";

const KEY_B64 = "AQEBAQEBAQEBAQEBAQEBAQEBAQEBAQEBAQEBAQEBAQE=";
const HEADER_JSON =
  '{"version":{"block":"11","app":"0"},"chain_id":"test-chain","height":"2","time":"2020-01-01T00:00:00.52Z",' +
  '"last_block_id":{"hash":"AAAA","parts":{"total":1,"hash":"BBBB"}},"last_commit_hash":"0102",' +
  '"data_hash":"0304","validators_hash":"0506","next_validators_hash":"0506","consensus_hash":"0708",' +
  '"app_hash":"","last_results_hash":"","evidence_hash":"","proposer_address":"0A0B"}';

test("block: data a list, evidence a list, last_commit height a number and vote-shaped signatures", () => {
  assert.equal(
    enc.encodeResult("block", { blockId: BLOCK_ID, block: BLOCK }),
    `{"block_id":{"hash":"ABCD","parts":{"total":1,"hash":"EF01"}},"block":{"header":${HEADER_JSON},` +
      '"data":["a2V5PXZhbHVl"],"evidence":[],"last_commit":{"height":1,"round":0,"block_id":{"hash":"AAAA","parts":{"total":1,"hash":"BBBB"}},"signatures":[' +
      '{"type":2,"height":"1","round":0,"block_id":{"hash":"AAAA","parts":{"total":1,"hash":"BBBB"}},"timestamp":"2020-01-01T00:00:00Z",' +
      '"validator_address":"0A0B","validator_index":0,"signature":"AQI=","block_id_flag":2},' +
      '{"type":2,"height":"1","round":0,"block_id":{"hash":"","parts":{"total":0,"hash":""}},"timestamp":"0001-01-01T00:00:00Z",' +
      '"validator_address":"","validator_index":1,"signature":null,"block_id_flag":1}]}}}',
  );
});

test("blockchain: block_size a number, num_txs a string", () => {
  const meta = { blockId: BLOCK_ID, blockSize: 573n, header: HEADER, numTxs: 1n };
  const text = enc.encodeResult("blockchain", { lastHeight: 2n, blockMetas: [meta] });
  assert.ok(
    text.startsWith(
      '{"last_height":"2","block_metas":[{"block_id":{"hash":"ABCD","parts":{"total":1,"hash":"EF01"}},"block_size":573,',
    ),
  );
  assert.ok(text.endsWith(',"num_txs":"1"}]}'));
});

test("block_results: total_gas_used, code strings, end_block and consensus_params_updates beside v0.34's names", () => {
  const result = {
    height: 2n,
    txsResults: [{ ...DELIVER_TX, gasUsed: 7n }],
    beginBlockEvents: [],
    endBlockEvents: [],
    validatorUpdates: [{ pubKey: { sum: { $case: "ed25519" as const, ed25519: KEY } }, power: 10n }],
    consensusParamUpdates: undefined,
  };
  assert.equal(
    enc.encodeResult("block_results", result),
    '{"height":"2","total_gas_used":"7","txs_results":[{"code":"0","data":"","log":"ok","info":"","gas_wanted":"1","gas_used":"7",' +
      '"events":[{"type":"app","attributes":[{"key":"Y3JlYXRvcg==","value":"Q29zbW9zaGk=","index":true}]}],"codespace":""}],' +
      '"begin_block_events":[],"end_block":[],' +
      `"validator_updates":[{"pub_key":{"type":"node/PubKeyEd25519","value":"${KEY_B64}"},"power":"10"}],` +
      '"consensus_params_updates":null,"end_block_events":[],"consensus_param_updates":null}',
  );
});

test("consensus_params: max_age beside v0.34's evidence fields, all strings", () => {
  const params = {
    block: { maxBytes: 22020096n, maxGas: -1n, timeIotaMs: 1000n },
    evidence: { maxAgeNumBlocks: 100000n, maxAgeDuration: { seconds: 172800n, nanos: 0 }, maxBytes: 0n },
    validator: { pubKeyTypes: ["ed25519"] },
    version: { appVersion: 0n },
  };
  assert.equal(
    enc.encodeResult("consensus_params", { blockHeight: 3n, consensusParams: params }),
    '{"block_height":"3","consensus_params":{"block":{"max_bytes":"22020096","max_gas":"-1","time_iota_ms":"1000"},' +
      '"evidence":{"max_age":"100000","max_age_num_blocks":"100000","max_age_duration":"172800000000000","max_bytes":"0"},' +
      '"validator":{"pub_key_types":["ed25519"]},"version":{}}}',
  );
});

test("tx: tx_result {log, gas_wanted, gas_used, tags} then v0.34's fields; code a string", () => {
  const tx = utf8("key=value");
  assert.equal(
    enc.encodeResult("tx", { hash: "C0DE", height: 2n, index: 0, txResult: DELIVER_TX, tx }),
    '{"hash":"C0DE","height":"2","index":0,"tx_result":{"log":"ok","gas_wanted":"1","gas_used":"0",' +
      '"tags":[{"key":"Y3JlYXRvcg==","value":"Q29zbW9zaGk=","index":true}],"code":"0","data":"","info":"",' +
      '"events":[{"type":"app","attributes":[{"key":"Y3JlYXRvcg==","value":"Q29zbW9zaGk=","index":true}]}],"codespace":""},"tx":"a2V5PXZhbHVl"}',
  );
});

test("abci_query: every field a string, key/value/proof hex", () => {
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
    '{"response":{"log":"exists","height":"2","proof":"","value":"76616C7565","key":"6B6579","index":"0","code":"0","info":"","codespace":""}}',
  );
});

test("broadcast result code a string; check_tx; broadcast_evidence an empty string; genesis_chunked numbers", () => {
  assert.equal(
    enc.encodeResult("broadcast_tx_async", { code: 0, data: "", log: "", codespace: "", hash: "AB" }),
    '{"code":"0","data":"","log":"","codespace":"","hash":"AB"}',
  );
  assert.equal(
    enc.encodeResult("check_tx", { ...DELIVER_TX, events: [] }),
    '{"code":"0","data":"","log":"ok","info":"","gas_wanted":"1","gas_used":"0","events":[],"codespace":"","sender":"","priority":"0","mempoolError":""}',
  );
  assert.equal(enc.encodeResult("broadcast_evidence", { hash: new Uint8Array([1]) }), '""');
  assert.equal(
    enc.encodeResult("genesis_chunked", { chunk: 0, total: 1, data: utf8("{}") }),
    '{"chunk":0,"total":1,"data":"e30="}',
  );
  assert.equal(
    enc.encodeResult("num_unconfirmed_txs", { nTxs: 0, total: 0, totalBytes: 0, txs: null }),
    '{"n_txs":"0","total":"0","total_bytes":"0"}',
  );
});

test("status and validators: node/PubKeyEd25519", () => {
  const v = { address: new Uint8Array([10]), pubKey: KEY, votingPower: 10n, proposerPriority: 0n };
  assert.equal(
    enc.encodeResult("validators", { blockHeight: 3n, validators: [v], count: 1, total: 1 }),
    `{"block_height":"3","validators":[{"address":"0A","pub_key":{"type":"node/PubKeyEd25519","value":"${KEY_B64}"},"voting_power":"10","proposer_priority":"0"}],"count":"1","total":"1"}`,
  );
});

test("seed evidence entries: numbers for height, time, powers; the validator's key", () => {
  const vote = {
    type: 1,
    height: 2n,
    round: 0,
    blockId: BLOCK_ID,
    timestamp: { seconds: 1577836800n, nanos: 0 },
    validatorAddress: new Uint8Array([0x0a]),
    validatorIndex: 0,
    signature: new Uint8Array([1]),
  };
  const block = {
    ...BLOCK,
    evidence: {
      evidence: [
        {
          sum: {
            $case: "duplicateVoteEvidence" as const,
            duplicateVoteEvidence: {
              voteA: vote,
              voteB: vote,
              totalVotingPower: 30n,
              validatorPower: 10n,
              timestamp: { seconds: 1577836800n, nanos: 0 },
            },
          },
        },
      ],
    },
  };
  const text = enc.encodeResult("block", { blockId: BLOCK_ID, block, evidenceKeys: new Map([["0A", KEY]]) });
  assert.ok(
    text.includes(
      `"evidence":[{"type":"node/DuplicateVoteEvidence","height":2,"time":1577836800,"total_voting_power":30,"validator":{"pub_key":{"type":"node/PubKeyEd25519","value":"${KEY_B64}"},"voting_power":10,"address":"0A"}}]`,
    ),
    text,
  );
});
