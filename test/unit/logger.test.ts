import assert from "node:assert/strict";
import { test } from "node:test";
import { createLogger, LoggerError, parseLogLevel } from "../../src/logger/index.js";

function capture() {
  const lines: string[] = [];
  return { lines, destination: { write: (text: string) => lines.push(text) } };
}

test("log_level parses Tendermint's forms", () => {
  assert.deepEqual(parseLogLevel("debug"), { fallback: "debug", modules: new Map() });
  const spec = parseLogLevel("consensus:debug,p2p:none,*:error");
  assert.equal(spec.fallback, "error");
  assert.deepEqual(
    [...spec.modules],
    [
      ["consensus", "debug"],
      ["p2p", "none"],
    ],
  );
  assert.throws(
    () => parseLogLevel("consensus:loud"),
    (error: unknown) => {
      assert.ok(error instanceof LoggerError);
      assert.equal(error.code, "LOG_LEVEL_INVALID");
      assert.match(error.message, /^log_level: expected a level .* got "consensus:loud"/);
      return true;
    },
  );
});

test("each module logs at its own level", () => {
  const { lines, destination } = capture();
  const log = createLogger({ level: "consensus:debug,p2p:none,*:info", destination, format: "json" });
  log.debug("main debug");
  log.info("main info");
  log.child("consensus").debug("consensus debug", { height: 5n });
  log.child("p2p").error("p2p error");
  log.child("mempool").debug("mempool debug");
  log.child("mempool").warn("mempool warn");
  const entries = lines.map((line) => JSON.parse(line));
  assert.deepEqual(
    entries.map((entry) => [entry.module, entry.level, entry._msg]),
    [
      ["main", "info", "main info"],
      ["consensus", "debug", "consensus debug"],
      ["mempool", "warn", "mempool warn"],
    ],
  );
  assert.equal(entries[1].height, "5");
  // v0.34's JSON logger keys: _msg, level (a word), module, ts (RFC 3339 UTC).
  assert.match(entries[0].ts, /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);
  assert.equal(entries[0].msg, undefined);
  assert.equal(entries[0].time, undefined);
});

test("disabled levels are no-ops that never touch their arguments", () => {
  const { lines, destination } = capture();
  const log = createLogger({ level: "error", destination });
  let touched = false;
  const fields = {
    get height() {
      touched = true;
      return 1;
    },
  };
  log.info("quiet", fields);
  log.debug("quiet", fields);
  assert.equal(touched, false);
  assert.equal(lines.length, 0);
  assert.equal(log.isEnabled("error"), true);
  assert.equal(log.isEnabled("warn"), false);
  assert.equal(log.info, log.debug, "both are the shared no-op");
});

test("private keys are redacted at any depth; bytes print as hex", () => {
  const { lines, destination } = capture();
  const log = createLogger({ destination, format: "json" });
  log.info("loaded key", {
    priv_key: { type: "node/PrivKeyEd25519", value: "SECRET" },
    key: { privateKey: new Uint8Array([1, 2, 3]), address: new Uint8Array([0xab, 0xcd]) },
    nested: [{ seed: "SECRET" }],
  });
  assert.equal(lines.length, 1);
  assert.equal(lines[0]!.includes("SECRET"), false);
  const entry = JSON.parse(lines[0]!);
  assert.equal(entry.priv_key, "[redacted]");
  assert.equal(entry.key.privateKey, "[redacted]");
  assert.equal(entry.key.address, "ABCD");
  assert.equal(entry.nested[0].seed, "[redacted]");
});

test("the plain format is Tendermint's one line per entry", () => {
  const { lines, destination } = capture();
  createLogger({ destination }).child("consensus").info("committed block", { height: 7, hash: "AB CD" });
  assert.equal(lines.length, 1);
  assert.match(
    lines[0]!,
    /^I\[\d{4}-\d{2}-\d{2}\|\d{2}:\d{2}:\d{2}\.\d{3}\] committed block +module=consensus height=7 hash="AB CD"\n$/,
  );
});

test("an unknown format is refused", () => {
  assert.throws(
    () => createLogger({ format: "xml" as "json" }),
    /log_format: expected "plain" or "json", got "xml"/,
  );
});
