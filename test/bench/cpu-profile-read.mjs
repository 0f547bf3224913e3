// A V8 CPU profile (.cpuprofile) read with the two lookups every summary walks it by: its nodes by
// id, and each node's parent (the file lists only children), so a sample's stack can be climbed.
import { readFileSync } from "node:fs";

export function readCpuProfile(path) {
  const profile = JSON.parse(readFileSync(path, "utf8"));
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const parentOf = new Map();
  for (const n of profile.nodes) for (const child of n.children ?? []) parentOf.set(child, n.id);
  return { profile, byId, parentOf };
}
