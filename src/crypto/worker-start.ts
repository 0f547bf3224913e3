// Starts a worker thread from a module beside the caller, from dist/ or from the sources. From
// dist/ the worker is the compiled .js sibling. Under tsx (tests, benches) the sources are .ts, and
// Node 20 does not carry `--import tsx` into worker threads, so the worker starts from a two-line
// bootstrap that registers tsx there first and then loads the .ts module.
import { Worker } from "node:worker_threads";

/**
 * A worker running `name` (without extension) next to the module whose `import.meta.url` is
 * `callerUrl`, with `workerData`.
 */
export function startWorkerBeside(callerUrl: string, name: string, workerData: unknown): Worker {
  const fromSource = callerUrl.endsWith(".ts");
  const url = new URL(`./${name}${fromSource ? ".ts" : ".js"}`, callerUrl);
  if (!fromSource) return new Worker(url, { workerData });
  const tsx = import.meta.resolve("tsx/esm/api");
  const bootstrap = `import(${JSON.stringify(tsx)}).then((api) => { api.register(); return import(${JSON.stringify(url.href)}); });`;
  return new Worker(bootstrap, { eval: true, workerData });
}
