// oclif stops scanning commands when oclif.manifest.json exists, so a stale manifest silently
// hides a new command or flag. This compares the committed manifest with the command classes in
// src/commands (run `npm run build` to regenerate it).
import assert from "node:assert/strict";
import { readdirSync, readFileSync } from "node:fs";
import { test } from "node:test";

const root = new URL("../../", import.meta.url);
const manifest = JSON.parse(readFileSync(new URL("oclif.manifest.json", root), "utf8")) as {
  version: string;
  commands: Record<string, Record<string, unknown> & { flags: Record<string, Record<string, unknown>> }>;
};
// Files of src/commands and of its topic folders (debug/dump.ts is the command "debug:dump").
const commandFiles = readdirSync(new URL("src/commands/", root), { recursive: true, encoding: "utf8" })
  .filter((name) => name.endsWith(".ts"))
  .map((name) => name.split("\\").join("/"));
const idOf = (file: string) => file.slice(0, -3).split("/").join(":");

interface FlagDefinition {
  type: string;
  description?: string;
  default?: unknown;
  multiple?: boolean;
  allowNo?: boolean;
  aliases?: string[];
}

interface CommandClass {
  description?: string;
  examples?: string[];
  aliases?: string[];
  hiddenAliases?: string[];
  flags?: Record<string, FlagDefinition>;
  baseFlags?: Record<string, FlagDefinition>;
}

test("the manifest lists exactly the commands in src/commands", () => {
  assert.deepEqual(Object.keys(manifest.commands).sort(), commandFiles.map(idOf).sort());
});

test("the manifest's version is package.json's", () => {
  const pkg = JSON.parse(readFileSync(new URL("package.json", root), "utf8")) as { version: string };
  assert.equal(manifest.version, pkg.version);
});

for (const file of commandFiles) {
  const id = idOf(file);
  test(`manifest entry of \`${id}\` matches its class`, async () => {
    const { default: command } = (await import(new URL(`src/commands/${file}`, root).href)) as {
      default: CommandClass;
    };
    const entry = manifest.commands[id];
    assert.ok(entry, `${id} is in the manifest`);
    assert.equal(entry.description, command.description);
    assert.deepEqual(entry.examples, command.examples);
    assert.deepEqual(entry.aliases, command.aliases ?? []);
    assert.deepEqual(entry.hiddenAliases ?? [], command.hiddenAliases ?? []);
    const flags = { ...command.baseFlags, ...command.flags };
    assert.deepEqual(Object.keys(entry.flags).sort(), Object.keys(flags).sort(), `flags of ${id}`);
    for (const [name, flag] of Object.entries(flags)) {
      const listed = entry.flags[name] as Record<string, unknown>;
      assert.equal(listed.type, flag.type, `${id} --${name} type`);
      assert.equal(listed.description, flag.description, `${id} --${name} description`);
      // oclif's manifest leaves out booleans' defaults (the class supplies them when it runs).
      if (flag.type !== "boolean" && typeof flag.default !== "function") {
        assert.deepEqual(listed.default, flag.default, `${id} --${name} default`);
      }
      assert.equal(Boolean(listed.multiple), Boolean(flag.multiple), `${id} --${name} multiple`);
      assert.equal(Boolean(listed.allowNo), Boolean(flag.allowNo), `${id} --${name} allowNo`);
      assert.deepEqual(listed.aliases ?? [], flag.aliases ?? [], `${id} --${name} aliases`);
    }
  });

  test(`\`${id}\` has a description and examples for --help`, async () => {
    const { default: command } = (await import(new URL(`src/commands/${file}`, root).href)) as {
      default: CommandClass;
    };
    assert.ok((command.description ?? "").length > 20);
    assert.ok((command.examples ?? []).length >= 1);
  });
}
