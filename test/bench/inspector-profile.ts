// A CPU profile of a running node over a chosen window only (a load window, say), taken through
// the V8 inspector protocol: the node is started with `--inspect=127.0.0.1:0`, prints its
// `ws://` address, and the bench starts and stops the sampling profiler over that socket, so the
// profile leaves out start-up, the idle heights and the shutdown that `--cpu-prof` would include.
import WebSocket from "ws";

const LISTENING = /Debugger listening on (ws:\/\/127\.0\.0\.1:\d+\/[0-9a-f-]+)/;

/** The inspector's address in a node's output, or undefined while it has not printed it. */
export function inspectorUrl(output: string): string | undefined {
  return LISTENING.exec(output)?.[1];
}

export interface WindowProfiler {
  /** Stops sampling and returns the profile (Chrome .cpuprofile JSON), then disconnects. */
  stop(): Promise<string>;
  /**
   * With `heapSamplingBytes`: stops the allocation sampling and returns its .heapprofile JSON (call
   * before stop(), which disconnects).
   */
  stopHeap(): Promise<string>;
}

/**
 * Connects and starts sampling every `intervalUs` microseconds; with `heapSamplingBytes`, also
 * samples the window's allocations (one sample per that many bytes on average, the collected ones
 * included, as alloc-profile.mjs does from start-up): what the garbage collector's share is made of.
 */
export async function startProfile(
  url: string,
  intervalUs = 1000,
  heapSamplingBytes?: number,
): Promise<WindowProfiler> {
  const socket = new WebSocket(url, { perMessageDeflate: false });
  await new Promise<void>((resolve, reject) => {
    socket.once("open", () => resolve());
    socket.once("error", reject);
  });
  let nextId = 1;
  const waiting = new Map<number, { resolve: (r: unknown) => void; reject: (e: Error) => void }>();
  socket.on("message", (data) => {
    const reply = JSON.parse(String(data)) as { id?: number; result?: unknown; error?: { message: string } };
    if (reply.id === undefined) return; // an event
    const w = waiting.get(reply.id);
    waiting.delete(reply.id);
    if (reply.error) w?.reject(new Error(`inspector: ${reply.error.message}`));
    else w?.resolve(reply.result);
  });
  const call = (method: string, params: object = {}) =>
    new Promise<unknown>((resolve, reject) => {
      const id = nextId++;
      waiting.set(id, { resolve, reject });
      socket.send(JSON.stringify({ id, method, params }));
      // bounded: a node too busy to answer in 60 s has no profile to give
      setTimeout(() => {
        if (waiting.delete(id)) reject(new Error(`inspector: ${method} unanswered after 60 s`));
      }, 60_000).unref();
    });
  await call("Profiler.enable");
  await call("Profiler.setSamplingInterval", { interval: intervalUs });
  await call("Profiler.start");
  if (heapSamplingBytes !== undefined) {
    await call("HeapProfiler.enable");
    await call("HeapProfiler.startSampling", {
      samplingInterval: heapSamplingBytes,
      includeObjectsCollectedByMajorGC: true,
      includeObjectsCollectedByMinorGC: true,
    });
  }
  return {
    async stopHeap() {
      if (heapSamplingBytes === undefined) throw new Error("inspector: no heap sampling was started");
      const { profile } = (await call("HeapProfiler.stopSampling")) as { profile: unknown };
      return JSON.stringify(profile);
    },
    async stop() {
      try {
        const { profile } = (await call("Profiler.stop")) as { profile: unknown };
        return JSON.stringify(profile);
      } finally {
        socket.close();
      }
    },
  };
}
