// The caller's consensus log, as the signer's state store sees it: a sync it may run itself. The
// store that writes on a thread of its own (StateFileWriter) is lent the log's descriptor and runs
// the fdatasync on that thread (while the state's stage fsyncs on the pool) before the rename, so
// one signature costs one wake-up of that thread and one of the main thread instead of two of each
// (docs/network.md, "sixth pass", "seventh pass"). The
// log (Wal.syncVia) runs the lent sync inside its own writer queue, after writing what it has
// buffered, so no rotation can close the descriptor meanwhile and a failure latches the log.
import { fdatasync } from "node:fs";

export interface LogSync {
  /**
   * Writes the log's buffered records, then runs `datasync(fd)` on its file; resolves once that
   * has resolved. Rejects, the log then refusing all further writes, when `datasync` rejects. A
   * log already failed or closed rejects without calling `datasync`. A stand-in may resolve
   * without ever calling `datasync` (a log made durable by other means): the caller then proceeds
   * as if it had.
   */
  syncVia(datasync: (fd: number) => Promise<void>): Promise<void>;
  /**
   * The node's own log only (Wal.syncRecording): `syncVia` with the signer's `record` appended
   * first, so that once it resolves the log itself holds the signature durably. A signer given a
   * log with it makes that sync the signature's one durable step and writes its state file after
   * (sign-state-store.ts); a log without it (a stand-in, a remote log) is only synced.
   */
  syncRecording?(record: Uint8Array, datasync: (fd: number) => Promise<void>): Promise<void>;
}

/** A log durable once `synced` resolves (a test's held sync, or a remote log): nothing is lent. */
export function logSyncedBy(synced: PromiseLike<void>): LogSync {
  return { syncVia: () => Promise.resolve(synced) };
}

/** The log synced the ordinary way (an fdatasync on node's thread pool): for stores without a thread. */
export function syncedOnPool(log: LogSync): Promise<void> {
  return log.syncVia(
    (fd) =>
      new Promise<void>((resolve, reject) => fdatasync(fd, (error) => (error ? reject(error) : resolve()))),
  );
}
