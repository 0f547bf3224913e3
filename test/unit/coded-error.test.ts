// Every module's error class is a CodedError: its code, its class name as `name`, the message and
// the cause as given, and `instanceof` both the module's class and the base.
import assert from "node:assert/strict";
import { test } from "node:test";
import { AbciError } from "../../src/abci/errors.js";
import { CodedError } from "../../src/coded-error.js";
import { ConfigError } from "../../src/config/errors.js";
import { EvidenceRejectedError } from "../../src/evidence/errors.js";
import { MempoolError } from "../../src/mempool/errors.js";
import { PrivvalError } from "../../src/privval/errors.js";
import { QueryError } from "../../src/query/errors.js";
import { StateError } from "../../src/state/errors.js";
import { TypesError } from "../../src/types/errors.js";
import { WalError } from "../../src/wal/errors.js";
import { NodeError } from "../../streams/node-errors.js";

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
