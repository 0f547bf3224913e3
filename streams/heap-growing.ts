// Applies config.toml's heap_growing_percent to this process's V8 heap. V8 reads the flag each
// time it sets the next full collection's limit, so setting it at start (not only on the command
// line) takes effect. Only the `rxbft node` process sets it: the flag is process-wide, and a
// node started inside a test or another program leaves that program's heap to its owner.
//
// Why a bound at all: V8 lets the old generation grow to up to 4× its live size before the next
// full collection when the machine has memory to spare, and the native backing stores of the
// Buffers that died meanwhile (each tx's bytes, request bodies, LevelDB batches) stay allocated
// until then. Measured under wrk load (docs/storage.md "Memory") that slack was half the RSS.
import { setFlagsFromString } from "node:v8";

/** 0 leaves V8's own rule; any other percent caps the heap's growth factor at 1 + percent/100. */
export function applyHeapGrowing(percent: number): void {
  if (!Number.isInteger(percent) || percent < 0) throw new RangeError(`heap_growing_percent ${percent}`);
  if (percent > 0) setFlagsFromString(`--heap-growing-percent=${percent}`);
}
