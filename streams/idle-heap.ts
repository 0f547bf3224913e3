// Gives V8's heap back once a load is over: when the mempool has been empty for
// `idle_heap_collect_seconds` and V8's heap is still IDLE_HEAP_MARGIN_BYTES above where it last
// settled, one memory-reducing collection is asked for through the inspector's
// HeapProfiler.collectGarbage (node:inspector, in process, no command-line flag).
//
// Why: under load the heap grows to 120–140 MB (the old generation's slack under
// heap_growing_percent, and a young generation grown to its maximum) and only V8's memory reducer
// takes it back down, which waits for a low allocation rate or 30 s after the last full
// collection: 30–55 s after a 10,000 tx/s load, measured (docs/storage.md "Memory"). The
// inspector's collection is V8's low-memory notification: full collections that also compact and
// shrink the young generation, as the memory reducer's do, and free the native backing stores of
// the Buffers that died with the load. A plain full collection (`gc()` under --expose-gc) keeps
// the grown young generation and left ~90 MB. The pause (tens of milliseconds for a heap of this
// size) comes when nothing is pending, once per load: the margin keeps a trickle of txs from
// triggering it again. The node's start counts as a load (initialIdleHeapState).
//
// Native memory the load left goes in the same step, right before the collection (one place, one
// trigger): `release` (src/level/idle-release.ts: LevelDB's memtables written out, the databases'
// native write batches let go, their buffers freed by this very collection).
//
// Only the `rxbft node` process runs it: a collection is process-wide, and a node started inside a
// test or another program leaves that program's heap to its owner.
import { getHeapStatistics } from "node:v8";

/** How far above the heap's settled size a quiet heap must be to be worth a collection. */
export const IDLE_HEAP_MARGIN_BYTES = 32 * 1024 * 1024;
/** How often the mempool and the heap are looked at. */
export const IDLE_HEAP_POLL_MS = 1000;

export interface IdleHeapState {
  /** When the mempool was first seen empty in the current quiet spell (undefined: not quiet). */
  quietSinceMs: number | undefined;
  /**
   * V8's heap size where it last settled: after a collection, or its lowest since. 0 until the
   * first collection: the heap a node starts with is not a settled one (below).
   */
  settledBytes: number;
}

export interface IdleHeapObservation {
  atMs: number;
  /** Txs pending or being checked in the mempool. */
  pendingTxs: number;
  heapBytes: number;
}

/**
 * Nothing settled at start. Starting a node is a load of its own: compiling the modules, opening
 * the stores and replaying the log allocate fast enough that V8 grows the young generation to its
 * maximum (32 MB of the ~57 MB heap measured right after a start, against ~25 MB once collected),
 * and only V8's memory reducer, 25–45 s later, shrank it: an idle node read 100 or 120 MB
 * depending on whether it had run yet (docs/storage.md "Memory", "Idle"). So the first quiet
 * spell collects any heap over the margin, as after a load.
 */
export const initialIdleHeapState: IdleHeapState = { quietSinceMs: undefined, settledBytes: 0 };

/**
 * The decision, pure: collect when the mempool has been empty for `quietMs` and the heap is
 * IDLE_HEAP_MARGIN_BYTES above where it settled (above 0 before the first collection). The
 * caller reports the heap after a collection with `settled`.
 */
export function idleHeapStep(
  state: IdleHeapState,
  seen: IdleHeapObservation,
  quietMs: number,
): { state: IdleHeapState; collect: boolean } {
  const settledBytes = Math.min(state.settledBytes, seen.heapBytes);
  if (seen.pendingTxs > 0) return { state: { quietSinceMs: undefined, settledBytes }, collect: false };
  const quietSinceMs = state.quietSinceMs ?? seen.atMs;
  const collect =
    seen.atMs - quietSinceMs >= quietMs && seen.heapBytes >= settledBytes + IDLE_HEAP_MARGIN_BYTES;
  return { state: { quietSinceMs: collect ? undefined : quietSinceMs, settledBytes }, collect };
}

/** After a collection: the heap settled where it now is. */
export function settled(state: IdleHeapState, heapBytes: number): IdleHeapState {
  return { ...state, settledBytes: heapBytes };
}

export interface IdleHeapDeps {
  pendingTxs(): number;
  log: { info(message: string, fields?: Record<string, unknown>): void };
  /** Asks V8 for its memory-reducing collection; resolves when done. */
  collect?: () => Promise<void>;
  /**
   * Gives back native memory before the collection; resolves to figures for the log line. A
   * failure is logged and the collection goes ahead.
   */
  release?: () => Promise<Record<string, number>>;
}

/** Starts watching; returns a stop function. `seconds` 0 turns it off. */
export function startIdleHeap(seconds: number, deps: IdleHeapDeps): () => void {
  if (!Number.isInteger(seconds) || seconds < 0) throw new RangeError(`idle_heap_collect_seconds ${seconds}`);
  if (seconds === 0) return () => {};
  const collect = deps.collect ?? inspectorCollect;
  let state = initialIdleHeapState;
  let busy = false;
  const timer = setInterval(() => {
    if (busy) return;
    const step = idleHeapStep(
      state,
      {
        atMs: performance.now(),
        pendingTxs: deps.pendingTxs(),
        heapBytes: getHeapStatistics().total_heap_size,
      },
      seconds * 1000,
    );
    state = step.state;
    if (!step.collect) return;
    busy = true;
    let released: Record<string, number> = {};
    const release = async () => {
      if (deps.release === undefined) return;
      try {
        released = await deps.release();
      } catch (error: unknown) {
        deps.log.info("idle: native memory not released", { reason: String(error) });
      }
    };
    let before = 0;
    let started = 0;
    release()
      .then(() => {
        before = getHeapStatistics().total_heap_size;
        started = performance.now();
        return collect();
      })
      .then(() => {
        const after = getHeapStatistics().total_heap_size;
        state = settled(state, after);
        deps.log.info("idle: V8 heap collected", {
          heap_mb_before: Math.round(before / 1048576),
          heap_mb_after: Math.round(after / 1048576),
          pause_ms: Math.round(performance.now() - started),
          ...released,
        });
      })
      .catch((error: unknown) => {
        // Without the inspector (a Node built without it) there is nothing to ask: stop asking.
        clearInterval(timer);
        deps.log.info("idle heap collection unavailable", { reason: String(error) });
      })
      .finally(() => {
        busy = false;
      });
  }, IDLE_HEAP_POLL_MS);
  timer.unref();
  return () => clearInterval(timer);
}

async function inspectorCollect(): Promise<void> {
  const { Session } = await import("node:inspector");
  const session = new Session();
  session.connect();
  try {
    await new Promise<void>((resolve, reject) =>
      session.post("HeapProfiler.collectGarbage", (error) => (error ? reject(error) : resolve())),
    );
  } finally {
    session.disconnect();
  }
}
