// LevelDB writes below the stores and the in-process apps: the reused native WriteBatch of each
// database (classic-level's binding, reached because 3.0 has no public call for it; package.json
// pins classic-level to 3.0.0 for that reason) and the one choice between it and the array form.
// See docs/storage.md "Per-tx cost of the commit side".
export {
  type BatchOperations,
  FillingBatch,
  IDLE_RELEASE_MS,
  NativeBatch,
  nativeBatchOf,
  RETAIN_BYTES,
  writeOperations,
} from "./native-batch.js";
