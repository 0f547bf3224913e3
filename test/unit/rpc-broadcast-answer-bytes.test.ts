// The broadcast_tx_* answer's template (src/rpc/json/json-results.ts) writes the bytes the general
// writer writes, in both JSON forms, inside the envelope with any id (odd strings, numbers, none);
// and an answer the template does not fit (a log, a codespace, data) still takes the general path.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { createJsonEncoder } from "../../src/rpc/json/index.js";
import type { JsonForm } from "../../src/rpc/json/json-form.js";
import { broadcastFields } from "../../src/rpc/json/json-results.js";
import { jsonText } from "../../src/rpc/json/json-text.js";
import type { BroadcastTxResult } from "../../src/rpc/json/result-types.js";
import { type JsonRpcId, successResponse } from "../../src/rpc/jsonrpc/envelope.js";

const HASH = "9F86D081884C7D659A2FEAA0C55AD015A3BF4F1B2B0B822CD15D6C15B0F00A08";
const results: BroadcastTxResult[] = [
  { code: 0, data: "", log: "", codespace: "", hash: HASH },
  { code: 0, data: "", log: "", codespace: "", hash: HASH.toLowerCase() },
  { code: 0, data: new Uint8Array(0), log: "", codespace: "", hash: Uint8Array.of(0xab, 0x01, 0xff) },
  { code: 4294967295, data: "", log: "", codespace: "", hash: HASH },
  { code: 7, data: "", log: "", codespace: "", hash: 'not "hex" <&>\u2028' },
  // The general path: any of data, log or codespace set.
  { code: 1, data: Uint8Array.of(1, 2), log: "", codespace: "", hash: HASH },
  { code: 2, data: "", log: 'bad "tx"\n<script>&\u2028', codespace: "", hash: HASH },
  { code: 3, data: "", log: "", codespace: "sdk\\x", hash: HASH },
];
const ids: (JsonRpcId | undefined)[] = [
  -1,
  0,
  1,
  2 ** 53 - 1,
  1.5,
  "",
  'a"b\\c\n\t',
  "ünï<&>\u2028",
  undefined,
];

describe("broadcast_tx_* answer bytes", () => {
  for (const form of ["tendermint", "seed"] as JsonForm[]) {
    it(`the template writes the general writer's bytes (${form} form), with any id`, () => {
      const encoder = createJsonEncoder(form);
      for (const route of ["broadcast_tx_async", "broadcast_tx_sync"]) {
        for (const r of results) {
          const now = encoder.encodeResult(route, r);
          const before = jsonText(broadcastFields(r, form));
          assert.equal(now, before, `${route} ${JSON.stringify({ ...r, data: String(r.data) })}`);
          for (const id of ids) assert.equal(successResponse(id, now), successResponse(id, before));
        }
      }
    });
  }

  it("the usual async answer, as clients read it", () => {
    const text = successResponse(
      -1,
      createJsonEncoder("tendermint").encodeResult("broadcast_tx_async", results[0]),
    );
    assert.equal(
      text,
      `{"jsonrpc":"2.0","id":-1,"result":{"code":0,"data":"","log":"","codespace":"","hash":"${HASH}"}}`,
    );
    const seed = createJsonEncoder("seed").encodeResult("broadcast_tx_async", results[3]);
    assert.equal(seed, `{"code":"4294967295","data":"","log":"","codespace":"","hash":"${HASH}"}`);
  });
});
