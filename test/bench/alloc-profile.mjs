// Preloaded into a benched node (`node --import test/bench/alloc-profile.mjs …`, load.bench.ts with
// LOAD_ALLOC_PROF=<file>): samples every allocation of the main thread's V8 heap, the ones GC has
// already collected included (V8's sampling heap profiler; `--heap-prof` keeps only survivors, so
// it cannot show churn), from start-up for ALLOC_PROF_SECONDS (default 30), then writes the
// .heapprofile to ALLOC_PROF_OUT unless that file exists. `node test/bench/alloc-profile-summary.mjs FILE` sums it by
// function: what allocates most per committed tx, i.e. what the GC spends its time on.
import { existsSync, writeFileSync } from "node:fs";
import { Session } from "node:inspector";
import { isMainThread } from "node:worker_threads";

const out = process.env.ALLOC_PROF_OUT;
// Worker threads inherit the preload too; the first to finish would write its own, nearly empty,
// profile in place of the main thread's.
if (out && isMainThread) {
  const session = new Session();
  session.connect();
  const post = (method, params) =>
    new Promise((resolve, reject) =>
      session.post(method, params, (error, result) => (error ? reject(error) : resolve(result))),
    );
  await post("HeapProfiler.enable");
  await post("HeapProfiler.startSampling", {
    samplingInterval: 16384,
    includeObjectsCollectedByMajorGC: true,
    includeObjectsCollectedByMinorGC: true,
  });
  const timer = setTimeout(
    async () => {
      const { profile } = await post("HeapProfiler.stopSampling");
      // The first node of a bench run writes it (load.bench.ts's second node, for broadcast_tx_commit, does not).
      if (!existsSync(out)) writeFileSync(out, JSON.stringify(profile));
      session.disconnect();
    },
    Number(process.env.ALLOC_PROF_SECONDS ?? 30) * 1000,
  );
  timer.unref();
}
