// Adds package-lock.json entries for optional platform packages that this workplace's npm
// registry does not serve (biome's and buf's macOS, Windows, Android and musl binaries). npm
// cannot resolve them, so `npm install` leaves them out of the lockfile, and `npm ci` then
// refuses the lockfile as out of sync. Each entry carries its os/cpu (and libc) so npm skips it
// on every other platform without fetching it. Run after any `npm install`:
//   node .ci/complete-lockfile.mjs
import { readFileSync, writeFileSync } from "node:fs";

const path = new URL("../package-lock.json", import.meta.url);
const lock = JSON.parse(readFileSync(path, "utf8"));
const packages = lock.packages;
const CPU = { armv7: "arm", aarch64: "arm64" };
const added = [];
for (const entry of Object.values(packages)) {
  for (const [name, version] of Object.entries(entry.optionalDependencies ?? {})) {
    const key = `node_modules/${name}`;
    if (key in packages) continue;
    const m = /-(android|darwin|linux|win32)-(arm64|x64|armv7|aarch64)(-musl)?$/.exec(name);
    if (!m) throw new Error(`${name}: cannot tell its platform from its name; add it by hand`);
    packages[key] = {
      version,
      cpu: [CPU[m[2]] ?? m[2]],
      ...(entry.dev ? { dev: true } : {}),
      ...(m[3] ? { libc: ["musl"] } : {}),
      optional: true,
      os: [m[1]],
    };
    added.push(name);
  }
}
writeFileSync(path, `${JSON.stringify(lock, null, 2)}\n`);
console.log(added.length ? `added ${added.join(", ")}` : "the lockfile already lists every optional package");
