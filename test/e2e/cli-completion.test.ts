// `rxbft completion bash|zsh`: the scripts load in real shells (Debian's bash and zsh) and
// complete commands, aliases, the debug topic and each command's flags.
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { test } from "node:test";
import { runCli, tempFolder } from "./cli-harness.js";

async function script(shell: string): Promise<string> {
  const out = await runCli(["completion", shell]);
  assert.equal(out.code, 0, out.stderr);
  const file = join(tempFolder("rxbft-completion-"), `rxbft.${shell}`);
  writeFileSync(file, out.stdout);
  return file;
}

/** What bash completes for the words typed so far (the last one being completed). */
function bashComplete(file: string, words: string[]): string[] {
  const array = words.map((w) => `'${w}'`).join(" ");
  const out = execFileSync(
    "bash",
    [
      "-c",
      `source '${file}'; COMP_WORDS=(${array}); COMP_CWORD=${words.length - 1}; _rxbft_complete; printf '%s\\n' "\${COMPREPLY[@]}"`,
    ],
    { encoding: "utf8" },
  );
  return out.split("\n").filter((l) => l !== "");
}

test("bash completes commands, aliases, the debug topic and flags", async () => {
  const file = await script("bash");
  assert.deepEqual(bashComplete(file, ["rxbft", "rol"]), ["rollback"]);
  assert.deepEqual(bashComplete(file, ["rxbft", "reindex"]), ["reindex-event", "reindex_event"]);
  assert.deepEqual(bashComplete(file, ["rxbft", "unsafe_reset_p"]), ["unsafe_reset_priv_validator"]);
  assert.deepEqual(bashComplete(file, ["rxbft", "debug", ""]), ["dump", "kill"]);
  assert.deepEqual(bashComplete(file, ["rxbft", "rollback", "--h"]), ["--hard", "--home"]);
  assert.deepEqual(bashComplete(file, ["rxbft", "debug", "kill", "--g"]), ["--grace"]);
  assert.deepEqual(bashComplete(file, ["rxbft", "reindex-event", "--s"]), ["--start-height"]);
  // A flag's value completes file names.
  const dir = tempFolder("rxbft-completion-");
  writeFileSync(join(dir, "node-home-marker"), "");
  assert.deepEqual(bashComplete(file, ["rxbft", "rollback", "--home", join(dir, "node-")]), [
    join(dir, "node-home-marker"),
  ]);
});

test("zsh loads the script and registers the completion function", async () => {
  const file = await script("zsh");
  execFileSync("zsh", ["-n", file]);
  const out = execFileSync(
    "zsh",
    [
      "-f",
      "-c",
      `autoload -U compinit; compinit -u -D; source '${file}'; print -r -- \${_comps[rxbft]}; whence -w _rxbft`,
    ],
    { encoding: "utf8", env: { ...process.env, HOME: tempFolder("rxbft-zsh-home-") } },
  );
  assert.equal(out, "_rxbft\n_rxbft: function\n");
});

test("completion names its shells; an unknown one is refused", async () => {
  const out = await runCli(["completion", "fish"]);
  assert.equal(out.code, 1);
  assert.match(out.stderr, /Expected fish to be one of: bash, zsh/);
  const help = await runCli(["completion", "--help"]);
  assert.match(help.stdout, /source <\(rxbft completion bash\)/);
});
