// consensusHandlers' kinds: the loop hands an effect only to the handlers that name its kind, so a
// kind no handler names is silently dropped. Every effect kind declared in src/consensus/effect.ts
// is named by exactly one handler, except PublishEvent, which goes to none (the node publishes its
// events from the loop's folds); a new kind fails here until it is routed or listed as going nowhere.
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { describe, it } from "node:test";
import { asapScheduler } from "rxjs";
import { consensusHandlers } from "../../streams/effects/consensus-handlers.js";

const GOES_NOWHERE = new Set(["PublishEvent"]);

function declaredKinds(): string[] {
  const source = readFileSync(new URL("../../src/consensus/effect.ts", import.meta.url), "utf8");
  return [...source.matchAll(/readonly type: "([A-Za-z]+)";/g)].map((m) => m[1]!);
}

describe("consensusHandlers' kinds", () => {
  it("names every declared effect kind in exactly one handler, PublishEvent in none", () => {
    const kinds = declaredKinds();
    assert.ok(kinds.length >= 13, `found only ${kinds.length} effect kinds in effect.ts`);
    const handlers = consensusHandlers({
      scheduler: asapScheduler,
      signing: {} as never,
      reaping: {} as never,
      validation: {} as never,
      execution: {} as never,
      peers: {} as never,
      events: { halt: () => {}, peerMisbehaved: () => {} },
      evidence: {} as never,
    });
    const named = new Map<string, number>();
    for (const h of handlers) {
      assert.ok(h.kinds !== undefined, "every consensus handler names its kinds");
      for (const k of h.kinds) named.set(k, (named.get(k) ?? 0) + 1);
    }
    for (const k of kinds) {
      if (GOES_NOWHERE.has(k)) assert.equal(named.get(k), undefined, `${k} is named by a handler`);
      else assert.equal(named.get(k), 1, `${k} is named by ${named.get(k) ?? 0} handlers`);
    }
    for (const k of named.keys()) assert.ok(kinds.includes(k), `a handler names ${k}, no declared kind`);
  });
});
