// Header (block) hash against reference §10.3 (TestHeaderHash), and block/BlockID derivation.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { sha256 } from "../../src/crypto/hash.js";
import { timestampFromRfc3339 } from "../../src/types/time.js";
import type { Header } from "../../src/wire/generated/tendermint/types/types.js";
import { headerHash, headerHashLeaves } from "../../src/wire/hashes.js";

const hex = (b: Uint8Array) => Buffer.from(b).toString("hex");
const utf8 = (s: string) => new TextEncoder().encode(s);
const h = (s: string) => sha256(utf8(s));

function testHeader(): Header {
  return {
    version: { block: 1n, app: 2n },
    chainId: "chainId",
    height: 3n,
    time: timestampFromRfc3339("2019-10-13T16:14:44Z"),
    lastBlockId: { hash: new Uint8Array(32), partSetHeader: { total: 6, hash: new Uint8Array(32) } },
    lastCommitHash: h("last_commit_hash"),
    dataHash: h("data_hash"),
    validatorsHash: h("validators_hash"),
    nextValidatorsHash: h("next_validators_hash"),
    consensusHash: h("consensus_hash"),
    appHash: h("app_hash"),
    lastResultsHash: h("last_results_hash"),
    evidenceHash: h("evidence_hash"),
    proposerAddress: h("proposer_address").subarray(0, 20),
  };
}

describe("header hash (reference §10.3)", () => {
  it("matches TestHeaderHash", () => {
    assert.equal(
      hex(headerHash(testHeader())).toUpperCase(),
      "F740121F553B5418C3EFBD343C2DBFE9E007BB67B0D020A0741374BAB65242A4",
    );
  });

  it("is empty without a validators hash", () => {
    assert.equal(headerHash({ ...testHeader(), validatorsHash: new Uint8Array(0) }).length, 0);
  });

  it("uses empty leaves for an empty chain id, zero height and empty bytes", () => {
    const leaves = headerHashLeaves({ ...testHeader(), chainId: "", height: 0n, appHash: new Uint8Array(0) });
    assert.equal(leaves[1]!.length, 0);
    assert.equal(leaves[2]!.length, 0);
    assert.equal(leaves[10]!.length, 0);
    assert.equal(hex(leaves[7]!).slice(0, 4), "0a20");
  });

  it("changes with every field", () => {
    const base = hex(headerHash(testHeader()));
    const variants: Partial<Header>[] = [
      { chainId: "other" },
      { height: 4n },
      { time: { seconds: 1n, nanos: 1 } },
      { appHash: h("x") },
      { proposerAddress: h("y").subarray(0, 20) },
      { lastBlockId: { hash: new Uint8Array(32), partSetHeader: { total: 7, hash: new Uint8Array(32) } } },
    ];
    for (const v of variants) assert.notEqual(hex(headerHash({ ...testHeader(), ...v })), base);
  });
});
