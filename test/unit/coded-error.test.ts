// Every module's error class is a CodedError: its code, its class name as `name`, the message and
// the cause as given, and `instanceof` both the module's class and the base.
import assert from "node:assert/strict";
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { test } from "node:test";
import { fileURLToPath } from "node:url";
import { AbciError } from "../../src/abci/errors.js";
import { CodedError, withoutStack } from "../../src/coded-error.js";
import { ConfigError } from "../../src/config/errors.js";
import { EvidenceRejectedError } from "../../src/evidence/errors.js";
import { MempoolError } from "../../src/mempool/errors.js";
import { MetricsError } from "../../src/metrics/errors.js";
import { OperationError } from "../../src/operations/errors.js";
import { AddrBookFileError } from "../../src/p2p/addrbook/file-format.js";
import { P2pError } from "../../src/p2p/errors.js";
import { NetAddressError } from "../../src/p2p/net-address.js";
import { ProtoDecodeError } from "../../src/p2p/proto-reader.js";
import { PrivvalError } from "../../src/privval/errors.js";
import { RemoteSignerError } from "../../src/privval/remote/errors.js";
import { QueryError } from "../../src/query/errors.js";
import { ParamError } from "../../src/rpc/jsonrpc/params.js";
import { StateError } from "../../src/state/errors.js";
import { TypesError } from "../../src/types/errors.js";
import { WalError } from "../../src/wal/errors.js";
import { NodeError } from "../../streams/node-errors.js";
import { ConsoleInputError } from "../../streams/replay-console/console-commands.js";

test("module errors share one coded base", () => {
  const cause = new Error("disk");
  const cases: [CodedError, string, string][] = [
    [new PrivvalError("PRIVVAL_BAD_KEY", "bad key", { cause }), "PrivvalError", "PRIVVAL_BAD_KEY"],
    [new WalError("WAL_CORRUPT", "bad record", { file: "f", offset: 3, cause }), "WalError", "WAL_CORRUPT"],
    [new TypesError("TYPES_HASH_MISMATCH", "hash", "block.header"), "TypesError", "TYPES_HASH_MISMATCH"],
    [new AbciError("ABCI_QUEUE_FULL", "full", "mempool"), "AbciError", "ABCI_QUEUE_FULL"],
    [new StateError("STATE_WRONG_BLOCK", "bad", 4n), "StateError", "STATE_WRONG_BLOCK"],
    [new ConfigError("CONFIG_INVALID", "bad", { cause }), "ConfigError", "CONFIG_INVALID"],
    [new QueryError("QUERY_SYNTAX", "bad", { position: 2 }), "QueryError", "QUERY_SYNTAX"],
    [new NodeError("NODE_HALTED", "halted"), "NodeError", "NODE_HALTED"],
    [new EvidenceRejectedError("expired"), "EvidenceRejectedError", "EVIDENCE_REJECTED"],
    [
      new MempoolError({ code: "MEMPOOL_TX_TOO_LARGE", message: "tx too large", detail: "2 > 1" } as never),
      "MempoolError",
      "MEMPOOL_TX_TOO_LARGE",
    ],
    [new MetricsError("METRICS_LISTEN_FAILED", "port taken"), "MetricsError", "METRICS_LISTEN_FAILED"],
    [new OperationError("OP_NOT_INITIALISED", "no data", { cause }), "OperationError", "OP_NOT_INITIALISED"],
    [new P2pError("P2P_BAD_MAC", "bad mac"), "P2pError", "P2P_BAD_MAC"],
    [new NetAddressError("P2P_ADDRESS_NO_ID", "no id"), "NetAddressError", "P2P_ADDRESS_NO_ID"],
    [new AddrBookFileError("bad json"), "AddrBookFileError", "P2P_ADDRBOOK_INVALID"],
    [new ProtoDecodeError("truncated"), "ProtoDecodeError", "P2P_UNDECODABLE"],
    [
      new RemoteSignerError("PRIVVAL_REMOTE_UNAVAILABLE", "no answer", { cause }),
      "RemoteSignerError",
      "PRIVVAL_REMOTE_UNAVAILABLE",
    ],
    [new ParamError("height: not a number"), "ParamError", "RPC_INVALID_PARAMS"],
    [new ConsoleInputError("goto: no position"), "ConsoleInputError", "CONSOLE_BAD_INPUT"],
  ];
  for (const [error, name, code] of cases) {
    assert.ok(error instanceof CodedError && error instanceof Error, name);
    assert.equal(error.name, name);
    assert.equal(error.code, code);
    assert.ok(error.message.length > 0);
  }
  assert.equal(cases[0]![0].cause, cause);
  assert.equal(cases[1]![0].cause, cause);
  assert.equal(cases[3]![0].message, "abci mempool connection: full");
  assert.equal(cases[4]![0].message, "height 4: bad");
  assert.equal(cases[9]![0].message, "tx too large (2 > 1)");
});

test("withoutStack: the error keeps class, code and message, captures no frame, and the limit is restored", () => {
  const limit = Error.stackTraceLimit;
  const error = withoutStack(() => new NodeError("NODE_HALTED", "halted"));
  assert.ok(error instanceof NodeError && error instanceof CodedError);
  assert.equal(error.code, "NODE_HALTED");
  assert.equal(error.stack, "NodeError: halted");
  assert.equal(Error.stackTraceLimit, limit);
  assert.throws(() =>
    withoutStack(() => {
      throw new Error("make failed");
    }),
  );
  assert.equal(Error.stackTraceLimit, limit, "restored after a throwing make");
  assert.match(
    new NodeError("NODE_HALTED", "halted").stack ?? "",
    /\n\s+at /,
    "other errors keep their stack",
  );
});

const root = fileURLToPath(new URL("../..", import.meta.url));

function sources(dir: string): string[] {
  return readdirSync(join(root, dir)).flatMap((name) => {
    const path = `${dir}/${name}`;
    if (statSync(join(root, path)).isDirectory()) return sources(path);
    return name.endsWith(".ts") ? [path] : [];
  });
}

test("no error class but the base extends Error itself", () => {
  const own = [...sources("src"), ...sources("streams")].filter(
    (f) => f !== "src/coded-error.ts" && !f.startsWith("src/wire/generated/"),
  );
  const found = own.flatMap((file) =>
    [...readFileSync(join(root, file), "utf8").matchAll(/class (\w+) extends Error\b/g)].map(
      (m) => `${file}: ${m[1]}`,
    ),
  );
  assert.deepEqual(found, [], "extend CodedError (src/coded-error.ts) with a code of the module");
});
