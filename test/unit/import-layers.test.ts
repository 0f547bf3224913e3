// Imports flow one way (DESIGN §3): commands → streams → src, and inside src down the layers
// below. A module may import only modules of a lower layer (files of its own module freely), and
// no group of files imports itself round (a cycle), whichever layer it is in. A new arrow against
// the direction fails here, naming the file, the import and the two layers.
import assert from "node:assert/strict";
import { readdirSync, readFileSync, statSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { describe, it } from "node:test";
import { fileURLToPath } from "node:url";
import ts from "typescript";

const root = fileURLToPath(new URL("../..", import.meta.url));

/** Layers, lowest first: each module's number. A module missing here fails the test (add it). */
const LAYERS: Readonly<Record<string, number>> = {
  "src/version.ts": 0,
  "src/coded-error.ts": 0,
  "src/bytes.ts": 0,
  "src/next-turn.ts": 0,
  "src/wire/generated": 0,
  "src/crypto": 1,
  "src/wire": 2,
  "src/types": 3,
  "src/logger": 4,
  // The reusable native LevelDB batch: over classic-level only, shared by the stores and the
  // in-process apps (both layer 7, which may not import each other).
  "src/level": 4,
  "src/query": 4,
  // The evidence pool's rules: over types and wire only (state's block validation uses them).
  "src/evidence": 4,
  "src/config": 5,
  "src/wal": 5,
  "src/consensus": 5,
  "src/mempool": 5,
  "src/privval": 5,
  "src/state": 6,
  "src/p2p": 6,
  "src/metrics": 6,
  // Reactors' reducers: over their pool's rules and the p2p channel codecs.
  "src/mempool-gossip": 7,
  "src/evidence-gossip": 7,
  // The remote signer's tcp transport is the p2p secret connection.
  "src/privval/remote": 7,
  "src/abci": 7,
  "src/blocksync": 7,
  "src/store": 7,
  "src/rpc": 8,
  streams: 9,
  "src/cli": 10,
  // Operator commands' logic (rollback, reindex, compact, debug): over stores, app and config.
  "src/operations": 11,
  "src/commands": 12,
};

/** The module a file belongs to: the longest key of LAYERS that contains it. */
function moduleOf(file: string): string | undefined {
  let best: string | undefined;
  for (const key of Object.keys(LAYERS))
    if ((file === key || file.startsWith(`${key}/`)) && (best === undefined || key.length > best.length))
      best = key;
  return best;
}

function sourceFiles(dir: string): string[] {
  const out: string[] = [];
  for (const name of readdirSync(join(root, dir))) {
    const path = `${dir}/${name}`;
    if (statSync(join(root, path)).isDirectory()) out.push(...sourceFiles(path));
    else if (name.endsWith(".ts") && !name.endsWith(".d.ts")) out.push(path);
  }
  return out;
}

/** Every relative import of a file (static, re-exports, dynamic), as repository paths. */
function importsOf(file: string): string[] {
  const info = ts.preProcessFile(readFileSync(join(root, file), "utf8"), true, true);
  return info.importedFiles
    .map((i) => i.fileName)
    .filter((name) => name.startsWith("."))
    .map((name) => relative(root, resolve(dirname(join(root, file)), name)).replace(/\.js$/, ".ts"));
}

const files = [...sourceFiles("src"), ...sourceFiles("streams")];
const graph = new Map(files.map((f) => [f, importsOf(f)]));

/** Arrows against the layers, as readable lines. */
export function layerViolations(edges: Map<string, string[]>): string[] {
  const problems: string[] = [];
  for (const [file, imports] of edges) {
    const from = moduleOf(file);
    if (from === undefined) {
      problems.push(`${file}: its module has no layer in test/unit/import-layers.test.ts`);
      continue;
    }
    for (const target of imports) {
      const to = moduleOf(target);
      if (to === undefined || to === from) continue;
      if (LAYERS[to]! >= LAYERS[from]!)
        problems.push(
          `${file} imports ${target}: ${from} (layer ${LAYERS[from]}) may not import ${to} (layer ${LAYERS[to]})`,
        );
    }
  }
  return problems;
}

/**
 * DESIGN §3: "no module [in src/] imports streams/"; only the commands do (commands → streams →
 * src). The layer numbers keep streams/ from importing src/cli and src/operations; this keeps those
 * two, which sit above streams/ in the table, from importing it in turn.
 */
export function srcImportsOfStreams(edges: Map<string, string[]>): string[] {
  const problems: string[] = [];
  for (const [file, imports] of edges) {
    if (!file.startsWith("src/") || moduleOf(file) === "src/commands") continue;
    for (const target of imports)
      if (target.startsWith("streams/"))
        problems.push(`${file} imports ${target}: only src/commands may import streams/`);
  }
  return problems;
}

/**
 * The pure modules (DESIGN §1: reducers; issue 11: "src/state does no I/O") import no node:
 * builtin and no package but immutable's data structures: a clock, a file or a socket could only
 * come in through one of those.
 */
const PURE_MODULES = ["src/consensus", "src/mempool", "src/state"];
const PURE_PACKAGES = new Set(["immutable"]);

/** Non-relative imports of the pure modules' files that are not allowed there. */
export function impureImports(packages: Map<string, string[]>): string[] {
  const problems: string[] = [];
  for (const [file, names] of packages) {
    if (!PURE_MODULES.some((m) => file.startsWith(`${m}/`))) continue;
    for (const name of names)
      if (!PURE_PACKAGES.has(name)) problems.push(`${file} imports ${name}: ${moduleOf(file)} is pure`);
  }
  return problems;
}

function packagesOf(file: string): string[] {
  const info = ts.preProcessFile(readFileSync(join(root, file), "utf8"), true, true);
  return info.importedFiles.map((i) => i.fileName).filter((name) => !name.startsWith("."));
}

/** Groups of files that import one another round (Tarjan's strongly connected components). */
export function importCycles(edges: Map<string, string[]>): string[][] {
  let next = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const cycles: string[][] = [];
  const visit = (v: string) => {
    index.set(v, next);
    low.set(v, next++);
    stack.push(v);
    onStack.add(v);
    for (const w of edges.get(v) ?? []) {
      if (!edges.has(w)) continue;
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v)!, index.get(w)!));
    }
    if (low.get(v) === index.get(v)) {
      const group: string[] = [];
      let w: string;
      do {
        w = stack.pop()!;
        onStack.delete(w);
        group.push(w);
      } while (w !== v);
      if (group.length > 1) cycles.push(group.sort());
    }
  };
  for (const v of edges.keys()) if (!index.has(v)) visit(v);
  return cycles;
}

describe("imports flow one way (DESIGN §3)", () => {
  it("finds the source files and their imports", () => {
    assert.ok(files.length > 200);
    assert.ok(graph.get("streams/boot/consensus-loop.ts")!.includes("streams/loop.ts"));
  });

  it("every import goes down the layers", () => {
    assert.deepEqual(layerViolations(graph), []);
  });

  it("nothing in src/ but the commands imports streams/", () => {
    assert.deepEqual(srcImportsOfStreams(graph), []);
  });

  it("the pure modules import no I/O: no node: builtin, no package but immutable", () => {
    assert.deepEqual(impureImports(new Map(files.map((f) => [f, packagesOf(f)]))), []);
    assert.deepEqual(
      impureImports(
        new Map([
          ["src/state/next-state.ts", ["node:fs", "immutable"]],
          ["src/store/block-store.ts", ["classic-level"]],
        ]),
      ),
      ["src/state/next-state.ts imports node:fs: src/state is pure"],
    );
  });

  it("no files import one another round", () => {
    assert.deepEqual(importCycles(graph), []);
  });

  it("catches an arrow against the direction and a cycle (the checks can fail)", () => {
    const bad = new Map([
      ["src/types/block.ts", ["streams/node.ts", "src/consensus/state.ts"]],
      ["src/wire/hashes.ts", ["src/types/block.ts"]],
      ["src/types/x.ts", ["src/types/y.ts"]],
      ["src/types/y.ts", ["src/types/x.ts"]],
    ]);
    const violations = layerViolations(bad);
    assert.equal(violations.length, 3);
    assert.match(violations[0]!, /src\/types \(layer 3\) may not import streams \(layer 9\)/);
    assert.deepEqual(importCycles(bad), [["src/types/x.ts", "src/types/y.ts"]]);
    const up = new Map([
      ["src/cli/testnet.ts", ["streams/node.ts"]],
      ["src/operations/rollback.ts", ["streams/loop.ts"]],
      ["src/commands/start.ts", ["streams/run-node.ts"]],
    ]);
    assert.deepEqual(layerViolations(up), [], "the layer numbers alone let src/cli import streams/");
    assert.deepEqual(srcImportsOfStreams(up), [
      "src/cli/testnet.ts imports streams/node.ts: only src/commands may import streams/",
      "src/operations/rollback.ts imports streams/loop.ts: only src/commands may import streams/",
    ]);
  });
});
