import assert from "node:assert/strict";
import { test } from "node:test";
import { goBooleanArgs } from "../../src/cli/go-boolean-flags.js";

const flags = {
  "rpc.unsafe": { type: "boolean" },
  "p2p.pex": { type: "boolean" },
  moniker: { type: "option" },
};

test("Go's --flag=true|false become oclif's --flag / --no-flag for boolean flags only", () => {
  assert.deepEqual(
    goBooleanArgs(
      ["--rpc.unsafe=true", "--p2p.pex=false", "--moniker=false", "--unknown=true", "--p2p.pex"],
      flags,
    ),
    ["--rpc.unsafe", "--no-p2p.pex", "--moniker=false", "--unknown=true", "--p2p.pex"],
  );
});

test("arguments after -- are left alone", () => {
  assert.deepEqual(goBooleanArgs(["--", "--rpc.unsafe=false"], flags), ["--", "--rpc.unsafe=false"]);
});
