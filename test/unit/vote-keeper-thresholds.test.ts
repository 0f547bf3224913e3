// The upon-rules react to the vote keeper's thresholds only through their readers
// (src/consensus/vote-keeper/thresholds.ts, DESIGN §1 point 3): a rule that read a tally's sticky
// facts itself would give a threshold a second meaning, and a reader no rule calls would be a
// computed-and-ignored output again.
import assert from "node:assert/strict";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, it } from "node:test";
import { fileURLToPath } from "node:url";
import * as thresholds from "../../src/consensus/vote-keeper/thresholds.js";

const handlersDir = fileURLToPath(new URL("../../src/consensus/handlers", import.meta.url));
const handlerSources = readdirSync(handlersDir)
  .filter((f) => f.endsWith(".ts"))
  .map((f) => ({ file: f, text: readFileSync(join(handlersDir, f), "utf8") }));

/** What a threshold is made of in the keeper's state; only the readers look at these. */
const STICKY_FACTS =
  /\.(majority|anyMajority|decisionRound|highestTwoThirdsAnyRound)\b|\b(prevotesIn|precommitsIn)\(/g;

describe("vote keeper thresholds: who reads them", () => {
  it("no upon-rule reads a tally's sticky facts past the readers", () => {
    const found: string[] = [];
    for (const { file, text } of handlerSources) {
      for (const match of text.matchAll(STICKY_FACTS)) {
        const line = text.slice(0, match.index).split("\n").length;
        found.push(`src/consensus/handlers/${file}:${line}: ${match[0]}`);
      }
    }
    assert.deepEqual(found, [], "read the threshold through vote-keeper/thresholds.ts instead");
  });

  it("every threshold reader is called by an upon-rule", () => {
    const unread = Object.keys(thresholds).filter(
      (reader) => !handlerSources.some(({ text }) => new RegExp(`\\b${reader}\\(`).test(text)),
    );
    assert.deepEqual(unread, [], "a threshold no rule reacts to: remove it, or make a rule read it");
  });
});
