import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { RpcError } from "../../src/rpc/errors.js";
import { parseListenAddress, resolveRpcOptions } from "../../src/rpc/options.js";
import {
  filterMinMax,
  pageOffset,
  resolveHeight,
  validatePage,
  validatePerPage,
} from "../../src/rpc/paging.js";

const failsWith = (run: () => unknown, message: string) =>
  assert.throws(
    run,
    (e: unknown) => e instanceof RpcError && e.jsonRpcCode === -32603 && e.message === message,
  );

describe("paging and heights (reference §1.2)", () => {
  it("per_page: default 30, < 1 gives 30, capped at 100", () => {
    assert.equal(validatePerPage(undefined), 30);
    assert.equal(validatePerPage(0), 30);
    assert.equal(validatePerPage(-5), 30);
    assert.equal(validatePerPage(7), 7);
    assert.equal(validatePerPage(1000), 100);
  });

  it("page: 1 by default, within [1, pages], with at least one page", () => {
    assert.equal(validatePage(undefined, 30, 0), 1);
    assert.equal(validatePage(1, 30, 0), 1);
    failsWith(() => validatePage(2, 30, 0), "page should be within [1, 1] range, given 2");
    failsWith(() => validatePage(0, 30, 100), "page should be within [1, 4] range, given 0");
    assert.equal(validatePage(4, 30, 100), 4);
    failsWith(() => validatePage(5, 30, 100), "page should be within [1, 4] range, given 5");
    assert.equal(pageOffset(4, 30), 90);
  });

  it("height: latest when absent, else within [base, latest]", () => {
    assert.equal(resolveHeight(undefined, 10n, 1n), 10n);
    assert.equal(resolveHeight(4n, 10n, 1n), 4n);
    failsWith(() => resolveHeight(0n, 10n, 1n), "height must be greater than 0, but got 0");
    failsWith(() => resolveHeight(-1n, 10n, 1n), "height must be greater than 0, but got -1");
    failsWith(
      () => resolveHeight(11n, 10n, 1n),
      "height 11 must be less than or equal to the current blockchain height 10",
    );
    failsWith(() => resolveHeight(2n, 10n, 5n), "height 2 is not available, lowest height is 5");
  });

  it("blockchain range: at most 20, newest kept, clamped to the store", () => {
    assert.deepEqual(filterMinMax(1n, 100n, 0n, 0n), { minHeight: 81n, maxHeight: 100n });
    assert.deepEqual(filterMinMax(1n, 100n, 5n, 10n), { minHeight: 5n, maxHeight: 10n });
    assert.deepEqual(filterMinMax(1n, 100n, 1n, 500n), { minHeight: 81n, maxHeight: 100n });
    assert.deepEqual(filterMinMax(50n, 100n, 10n, 60n), { minHeight: 50n, maxHeight: 60n });
    assert.deepEqual(filterMinMax(1n, 5n, 0n, 0n), { minHeight: 1n, maxHeight: 5n });
    failsWith(() => filterMinMax(1n, 100n, -1n, 5n), "heights must be non-negative");
    failsWith(() => filterMinMax(1n, 100n, 20n, 10n), "min height 20 can't be greater than max height 10");
    failsWith(() => filterMinMax(1n, 0n, 0n, 0n), "min height 1 can't be greater than max height 0");
  });
});

describe("server options (reference §4.3)", () => {
  it("has Tendermint's defaults, with a larger subscription buffer", () => {
    const o = resolveRpcOptions();
    assert.equal(o.laddr, "tcp://127.0.0.1:26657");
    assert.equal(o.maxOpenConnections, 900);
    assert.equal(o.maxSubscriptionClients, 100);
    assert.equal(o.maxSubscriptionsPerClient, 5);
    assert.equal(o.maxBodyBytes, 1_000_000);
    assert.equal(o.maxHeaderBytes, 1_048_576);
    assert.equal(o.timeoutBroadcastTxCommitMs, 10_000);
    assert.ok(o.subscriptionBufferSize > 200);
    assert.deepEqual(o.corsAllowedMethods, ["HEAD", "GET", "POST"]);
    assert.equal(o.unsafe, false);
  });

  it("parses tcp and unix listen addresses and refuses the rest with Tendermint's words", () => {
    assert.deepEqual(parseListenAddress("tcp://127.0.0.1:26657"), {
      kind: "tcp",
      host: "127.0.0.1",
      port: 26657,
    });
    assert.deepEqual(parseListenAddress("tcp://[::1]:0"), { kind: "tcp", host: "::1", port: 0 });
    assert.deepEqual(parseListenAddress("tcp://:26657"), { kind: "tcp", host: "0.0.0.0", port: 26657 });
    assert.deepEqual(parseListenAddress("unix:///tmp/rpc.sock"), { kind: "unix", path: "/tmp/rpc.sock" });
    assert.throws(
      () => parseListenAddress("127.0.0.1:26657"),
      /invalid listening address .* \(use fully formed addresses, including the tcp:\/\/ or unix:\/\/ prefix\)/,
    );
    assert.throws(() => parseListenAddress("tcp://127.0.0.1:70000"), /port 70000 is out of range/);
    assert.throws(() => parseListenAddress("tcp://a:1,tcp://b:2"), /one address only/);
  });

  it("refuses negative limits, a small buffer, half of a TLS pair and unknown compat", () => {
    assert.throws(
      () => resolveRpcOptions({ maxOpenConnections: -1 }),
      /maxOpenConnections must be a non-negative integer/,
    );
    assert.throws(() => resolveRpcOptions({ subscriptionBufferSize: 50 }), /at least 100/);
    assert.throws(() => resolveRpcOptions({ tlsCertFile: "c.pem" }), /must be set together/);
    assert.throws(
      () => resolveRpcOptions({ compat: "go" as never }),
      /compat must be "seed" or "tendermint"/,
    );
  });
});
