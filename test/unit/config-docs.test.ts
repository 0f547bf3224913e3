// docs/configuration.md documents every key of the schema, in its section, with its flag.
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { test } from "node:test";
import { allKeys, SCHEMA } from "../../src/config/config-schema.js";

const doc = readFileSync(new URL("../../docs/configuration.md", import.meta.url), "utf8");

test("every config key has a row in its section of docs/configuration.md", () => {
  const sections = doc.split(/^## /m);
  for (const section of Object.keys(SCHEMA)) {
    const heading = section === "" ? "Base (top-level) keys" : `[${section}]`;
    const text = sections.find((part) => part.startsWith(heading));
    assert.ok(text, `section ${heading} documented`);
    for (const entry of allKeys().filter((key) => key.section === section)) {
      const row = text.split("\n").find((line) => line.startsWith(`| \`${entry.key}\``));
      assert.ok(row, `${entry.name} documented`);
      if (entry.spec.flag)
        assert.ok(row.includes(`\`--${entry.spec.flag}\``), `${entry.name} names --${entry.spec.flag}`);
    }
  }
});
