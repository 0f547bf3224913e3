// NodeInfo's Validate and CompatibleWith rules as v0.34 applies them to a peer's copy.
import assert from "node:assert/strict";
import { test } from "node:test";
import type { P2pError } from "../../src/p2p/errors.js";
import { nodeIdFromPublicKey, nodeIdProblem } from "../../src/p2p/node-id.js";
import {
  decodeNodeInfo,
  encodeNodeInfo,
  incompatibility,
  listenAddrProblem,
  nodeInfoProblem,
} from "../../src/p2p/node-info.js";
import { checkRemoteNodeInfo } from "../../src/p2p/upgrade.js";
import { testNode } from "./p2p-test-peers.js";

const base = () => testNode().info;

test("node id: sha256(pub)[0:20] in lower-case hex (RFC 8032 test keys)", () => {
  const pub = (h: string) => new Uint8Array(Buffer.from(h, "hex"));
  assert.equal(
    nodeIdFromPublicKey(pub("d75a980182b10ab7d54bfed3c964073a0ee172f3daa62325af021a68f707511a")),
    "21fe31dfa154a261626bf854046fd2271b7bed4b",
  );
  assert.equal(
    nodeIdFromPublicKey(pub("3d4017c3e843895a92b70aa74d1b7ebc9c982ccf2ec4968cc0cd55f12af4660c")),
    "39f713d0a644253f04529421b9f51b9b08979d08",
  );
  assert.equal(nodeIdProblem("DEADBEEF".repeat(5)), undefined, "upper case parses (trap 17)");
  assert.match(nodeIdProblem("deadbeef") ?? "", /4 bytes/);
  assert.match(nodeIdProblem("x".repeat(40)) ?? "", /not hex/);
  assert.equal(nodeIdProblem(""), "no ID");
});

test("validate: a good NodeInfo passes and round-trips", () => {
  const info = base();
  assert.equal(nodeInfoProblem(info), undefined);
  assert.deepEqual(decodeNodeInfo(encodeNodeInfo(info)), info);
});

for (const [what, change, pattern] of [
  ["empty moniker", { moniker: "" }, /moniker/],
  ["blank moniker", { moniker: "   " }, /moniker/],
  ["non-ASCII moniker", { moniker: "nœud" }, /moniker/],
  ["control char in version", { version: "0.34\n" }, /version/],
  ["17 channels", { channels: new Uint8Array(17).map((_, i) => i) }, /at most 16/],
  ["duplicate channel", { channels: Uint8Array.of(0x20, 0x20) }, /twice/],
  ["listen_addr without port", { listenAddr: "tcp://127.0.0.1" }, /port/],
  ["empty listen_addr", { listenAddr: "" }, /listen_addr/],
  ["listen_addr port out of range", { listenAddr: "127.0.0.1:70000" }, /port/],
  ["bad id", { defaultNodeId: "zz" }, /default_node_id/],
] as const) {
  test(`validate: ${what} is refused`, () => {
    const info = { ...base(), ...change };
    assert.match(nodeInfoProblem(info) ?? "", pattern);
  });
}

test("validate: tx_index must be '', on or off; rpc_address printable", () => {
  const info = base();
  for (const txIndex of ["", "on", "off"])
    assert.equal(nodeInfoProblem({ ...info, other: { ...info.other, txIndex } }), undefined);
  assert.match(nodeInfoProblem({ ...info, other: { ...info.other, txIndex: "kv" } }) ?? "", /tx_index/);
  assert.match(
    nodeInfoProblem({ ...info, other: { ...info.other, rpcAddress: "\u0001" } }) ?? "",
    /rpc_address/,
  );
});

test("listen addresses v0.34 accepts", () => {
  for (const ok of [
    "tcp://0.0.0.0:26656",
    "127.0.0.1:26656",
    "[::1]:26656",
    "tcp://[fe80::1]:1",
    "node.example:26656",
  ]) {
    assert.equal(listenAddrProblem(ok), undefined, ok);
  }
  for (const bad of ["26656", "::1:26656", "tcp://:26656", "a@b:1", "host:port"]) {
    assert.notEqual(listenAddrProblem(bad), undefined, bad);
  }
});

test("compatibility: block version, network, and a common channel (unless we list none)", () => {
  const ours = base();
  assert.equal(incompatibility(ours, base()), undefined);
  assert.match(incompatibility(ours, { ...base(), network: "other" }) ?? "", /network/);
  assert.match(
    incompatibility(ours, { ...base(), protocolVersion: { p2p: 8n, block: 10n, app: 0n } }) ?? "",
    /block/,
  );
  assert.equal(
    incompatibility(ours, { ...base(), protocolVersion: { p2p: 7n, block: 11n, app: 9n } }),
    undefined,
    "p2p/app versions are not compared",
  );
  assert.match(incompatibility(ours, { ...base(), channels: Uint8Array.of(0x99) }) ?? "", /common channels/);
  assert.equal(
    incompatibility({ ...ours, channels: new Uint8Array(0) }, { ...base(), channels: Uint8Array.of(0x99) }),
    undefined,
  );
});

test("checks run in v0.34's order: validate, id, self, compatibility", () => {
  const ours = testNode().info;
  const peer = testNode();
  const code = (f: () => void) => {
    try {
      f();
      return "ok";
    } catch (e) {
      return (e as P2pError).code;
    }
  };
  assert.equal(
    code(() => checkRemoteNodeInfo(peer.info, peer.id, ours)),
    "ok",
  );
  // Invalid beats id mismatch.
  assert.equal(
    code(() => checkRemoteNodeInfo({ ...peer.info, moniker: "" }, "aa".repeat(20), ours)),
    "P2P_BAD_NODE_INFO",
  );
  // Id mismatch beats incompatibility.
  assert.equal(
    code(() => checkRemoteNodeInfo({ ...peer.info, network: "x" }, "aa".repeat(20), ours)),
    "P2P_ID_MISMATCH",
  );
  assert.equal(
    code(() => checkRemoteNodeInfo(ours, ours.defaultNodeId, ours)),
    "P2P_SELF",
  );
  assert.equal(
    code(() => checkRemoteNodeInfo({ ...peer.info, network: "x" }, peer.id, ours)),
    "P2P_INCOMPATIBLE",
  );
});

test("decode: malformed NodeInfo bytes are P2P_BAD_NODE_INFO", () => {
  assert.throws(
    () => decodeNodeInfo(Uint8Array.of(0x0a, 0x05)),
    (e: P2pError) => e.code === "P2P_BAD_NODE_INFO",
  );
  assert.throws(
    () => decodeNodeInfo(Uint8Array.of(0x10, 0x01)),
    (e: P2pError) => e.code === "P2P_BAD_NODE_INFO",
  );
});
