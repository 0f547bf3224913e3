import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { eventDataType, passThroughEncoder, RawJson } from "../../src/rpc/encoder.js";
import {
  errorResponse,
  goJsonString,
  joinResponses,
  successResponse,
} from "../../src/rpc/jsonrpc/envelope.js";

describe("pass-through result encoder", () => {
  it("writes bigint as decimal strings and bytes (Uint8Array or Buffer) as base64", () => {
    const json = passThroughEncoder.encodeResult("x", {
      height: 12345678901234567890n,
      hash: new Uint8Array([1, 2, 3]),
      tx: Buffer.from("hi"),
      nested: [{ n: 1n }],
    });
    assert.equal(json, '{"height":"12345678901234567890","hash":"AQID","tx":"aGk=","nested":[{"n":"1"}]}');
  });

  it("splices results that are already JSON", () => {
    assert.equal(passThroughEncoder.encodeResult("x", new RawJson('{"a":1}')), '{"a":1}');
    assert.equal(passThroughEncoder.encodeResult("x", undefined), "null");
  });

  it("wraps event data with Tendermint's data type names", () => {
    assert.equal(
      passThroughEncoder.encodeEventData({ type: "NewBlock", data: { h: 1n }, events: {} }),
      '{"type":"tendermint/event/NewBlock","value":{"h":"1"}}',
    );
    for (const name of [
      "NewRoundStep",
      "TimeoutPropose",
      "TimeoutWait",
      "Polka",
      "Lock",
      "Unlock",
      "Relock",
      "ValidBlock",
    ]) {
      assert.equal(eventDataType(name), "tendermint/event/RoundState");
    }
    assert.equal(eventDataType("Vote"), "tendermint/event/Vote");
  });
});

describe("response envelope", () => {
  it("writes ids, results and errors as Tendermint does, omitting what is empty", () => {
    assert.equal(successResponse(-1, "{}"), '{"jsonrpc":"2.0","id":-1,"result":{}}');
    assert.equal(successResponse("a", "[]"), '{"jsonrpc":"2.0","id":"a","result":[]}');
    assert.equal(
      errorResponse(undefined, { code: -32700, message: "Parse error. Invalid JSON", data: "x" }),
      '{"jsonrpc":"2.0","error":{"code":-32700,"message":"Parse error. Invalid JSON","data":"x"}}',
    );
    assert.equal(
      errorResponse(3, { code: -32601, message: "Method not found", data: "" }),
      '{"jsonrpc":"2.0","id":3,"error":{"code":-32601,"message":"Method not found"}}',
    );
    assert.equal(joinResponses(["a"]), "a");
    assert.equal(joinResponses(["a", "b"]), "[a,b]");
  });

  it("escapes HTML characters in strings as Go's encoding/json does", () => {
    assert.equal(goJsonString("<a>&\u2028"), '"\\u003ca\\u003e\\u0026\\u2028"');
    assert.equal(goJsonString('plain "q"'), '"plain \\"q\\""');
    // Repeated calls must all escape (a global regexp's lastIndex once made every other call skip).
    for (let i = 0; i < 4; i++) assert.equal(goJsonString("a<b"), '"a\\u003cb"');
  });
});
