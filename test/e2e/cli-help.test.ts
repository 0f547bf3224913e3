// --help of the program and of each command, and the error policy of commands run in an empty
// home.
import assert from "node:assert/strict";
import { join } from "node:path";
import { test } from "node:test";
import { runCli, tempHome } from "./cli-harness.js";

const COMMANDS = [
  "compact",
  "completion",
  "debug",
  "gen_node_key",
  "gen_validator",
  "init",
  "node",
  "reindex_event",
  "reset_state",
  "rollback",
  "show_node_id",
  "show_validator",
  "signer",
  "testnet",
  "unsafe_reset_all",
  "unsafe_reset_priv_validator",
  "version",
];

test("rxbft --help lists every command", async () => {
  const out = await runCli(["--help"]);
  assert.equal(out.code, 0, out.stderr);
  for (const command of COMMANDS) assert.match(out.stdout, new RegExp(`^\\s+${command}\\s`, "m"), command);
  assert.match(out.stdout, /^\s+unsafe-reset-all\s/m, "kebab-case aliases are listed too");
});

test("each operator command's --help says what it does, refuses a running node's home, and has examples", async () => {
  const commands: [string[], RegExp][] = [
    [["rollback"], /Refuses while a node runs in the home/],
    [["reindex-event"], /Refuses the null indexer, and a home where a node runs/],
    [["reset-state"], /Refuses while a node runs in the home/],
    [["unsafe_reset_priv_validator"], /Refuses while a node runs in the home/],
    [["compact"], /Refuses while a node runs in the home/],
    [["debug", "dump"], /Works on a running or stuck node/],
    [["debug", "kill"], /PID must be the node running in --home/],
    [["completion"], /bash or zsh/],
  ];
  for (const [words, says] of commands) {
    const out = await runCli([...words, "--help"]);
    assert.equal(out.code, 0, `${words.join(" ")}: ${out.stderr}`);
    // --help wraps at 100 columns: any run of spaces may be a line break.
    assert.match(out.stdout.replace(/\s+/g, " "), says, words.join(" "));
    assert.match(
      out.stdout,
      new RegExp(`EXAMPLES\\n\\s+(\\$ |source <\\()rxbft ${words.join(" ")}`),
      words.join(" "),
    );
  }
});

test("a command's --help shows its description, flags, global flags and examples", async () => {
  const out = await runCli(["testnet", "--help"]);
  assert.equal(out.code, 0, out.stderr);
  assert.match(out.stdout, /Initialise the homes of a whole test network/);
  for (const flag of [
    "--v",
    "--n",
    "--o",
    "--starting-port",
    "--chain-id",
    "--hostname-prefix",
    "--populate-persistent-peers",
    "--home",
    "--log_level",
    "--trace",
  ]) {
    assert.ok(out.stdout.includes(flag), flag);
  }
  assert.match(out.stdout, /EXAMPLES\n\s+\$ rxbft testnet --v 4 --o \.\/mytestnet/);
});

test("show_node_id in an empty home says how to make the key", async () => {
  const home = tempHome();
  const out = await runCli(["show_node_id", "--home", home]);
  assert.equal(out.code, 1);
  assert.equal(
    out.stderr,
    `Error: ${join(home, "config/node_key.json")}: no node key here; run \`rxbft init\` or \`rxbft gen_node_key\`\n`,
  );
});

test("a bad --log_level names the flag and the expectation", async () => {
  const out = await runCli(["init", "--home", tempHome(), "--log_level", "consensus:loud"]);
  assert.equal(out.code, 1);
  assert.match(
    out.stderr,
    /^Error: flag --log_level: expected a level \(debug, info, warn, error, none\) or module:level pairs/,
  );
});

test("--log_level none silences init's output", async () => {
  const out = await runCli(["init", "--home", tempHome(), "--log_level", "none"]);
  assert.equal(out.code, 0, out.stderr);
  assert.equal(out.stdout, "");
});
