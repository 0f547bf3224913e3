// Durable, atomic replacement of a small file: write a temporary file beside it, fsync it,
// rename it over the target, fsync the directory. A crash leaves the old file or the new one,
// never a torn mix; that matters most for priv_validator_state.json (double-sign protection).
// Two forms with the same steps and the same guarantees: `writeFileAtomic` blocks the thread
// (init, unsafe_reset_all, key generation, and the signer's state writer thread, which calls its
// steps apart: the temporary file written, its fsync on a pool thread, then replace); `writeFileAtomicAsync` runs the same sequence through
// node's async fs so the event loop keeps turning while the disk works (address book; the signer
// when a test stands in for the file system).
import {
  closeSync,
  promises as fsPromises,
  fsyncSync,
  openSync,
  renameSync,
  rmSync,
  writeSync,
} from "node:fs";
import { basename, dirname, join } from "node:path";

export function writeFileAtomic(path: string, content: string, mode: number): void {
  const temporary = join(dirname(path), `.${basename(path)}.${process.pid}.tmp`);
  stageFileSync(temporary, content, mode);
  replaceWithStagedSync(temporary, path);
}

/**
 * `content` written to a new `temporary` (created with `mode`), its descriptor left open for the
 * caller's fsync and close (here, or on a pool thread in the signer's state writer). On failure
 * the descriptor is closed and the temporary file removed.
 */
export function writeTemporarySync(temporary: string, content: string, mode: number): number {
  const fd = openSync(temporary, "w", mode);
  try {
    const bytes = Buffer.from(content, "utf8");
    let written = 0;
    while (written < bytes.length) written += writeSync(fd, bytes, written, bytes.length - written);
  } catch (error) {
    closeSync(fd);
    rmSync(temporary, { force: true });
    throw error;
  }
  return fd;
}

/**
 * The first half of the replacement: `content` written to `temporary` (created with `mode`) and
 * fsynced; no reader takes that name for the file. On failure the temporary file is removed.
 */
export function stageFileSync(temporary: string, content: string, mode: number): void {
  const fd = writeTemporarySync(temporary, content, mode);
  try {
    fsyncSync(fd);
  } catch (error) {
    closeSync(fd);
    rmSync(temporary, { force: true });
    throw error;
  }
  closeSync(fd);
}

/**
 * The second half: the staged file renamed over `path`, then the directory fsynced so the rename
 * survives a crash. `directoryFd`, when given, is that directory opened already (a writer that
 * replaces the same file often keeps it open rather than opening it each time); null means the
 * directory cannot be opened on this platform. A failed rename removes the temporary file.
 */
export function replaceWithStagedSync(temporary: string, path: string, directoryFd?: number | null): void {
  try {
    renameSync(temporary, path);
  } catch (error) {
    rmSync(temporary, { force: true });
    throw error;
  }
  if (directoryFd === undefined) fsyncDirectory(dirname(path));
  else if (directoryFd !== null) fsyncOpenDirectory(directoryFd);
}

/** Makes a rename durable; some platforms cannot open a directory, which is not an error. */
function fsyncDirectory(directory: string): void {
  const fd = openDirectory(directory);
  if (fd === null) return;
  try {
    fsyncOpenDirectory(fd);
  } finally {
    closeSync(fd);
  }
}

/** The directory opened for fsync, or null where directories cannot be opened (e.g. Windows). */
export function openDirectory(directory: string): number | null {
  try {
    return openSync(directory, "r");
  } catch {
    return null;
  }
}

/** Errors that mean "this platform cannot fsync a directory", not "the disk failed". */
const DIRECTORY_FSYNC_UNSUPPORTED = new Set(["EINVAL", "ENOTSUP", "EOPNOTSUPP", "EISDIR", "EPERM", "EBADF"]);

function directoryFsyncUnsupported(error: unknown): boolean {
  return DIRECTORY_FSYNC_UNSUPPORTED.has((error as NodeJS.ErrnoException)?.code ?? "");
}

function fsyncOpenDirectory(fd: number): void {
  try {
    fsyncSync(fd);
  } catch (error) {
    // Directories cannot be fsynced on every platform; there the rename stands as it is. An I/O
    // error is the disk's, and the rename may not survive a power cut: the caller must know.
    if (!directoryFsyncUnsupported(error)) throw error;
  }
}

/** The part of an open file `writeFileAtomicAsync` uses (node's fs.promises FileHandle has it). */
export interface AtomicWriteFileHandle {
  write(buffer: Uint8Array, offset: number, length: number): Promise<{ bytesWritten: number }>;
  sync(): Promise<void>;
  close(): Promise<void>;
}

/** The file system `writeFileAtomicAsync` uses: node's fs.promises, or a stand-in for tests. */
export interface AtomicWriteFs {
  open(path: string, flags: string, mode?: number): Promise<AtomicWriteFileHandle>;
  rename(from: string, to: string): Promise<void>;
  rm(path: string, options: { force: boolean }): Promise<void>;
}

// Temporary names are unique within the process, so two writes in flight never share one.
let temporaryCounter = 0;

/**
 * The same replacement as `writeFileAtomic` (temporary file created with `mode`, write, fsync,
 * close, rename over `path`, fsync of the directory) through async fs calls. Resolves only once
 * the whole sequence is done, i.e. when the new content would survive a crash; rejects on any
 * failure of the file's write, fsync, close or rename (the temporary file is then removed).
 *
 * `renameAfter`, when given, holds the rename until it resolves: the new content is staged (written
 * and synced under its temporary name, which no reader takes for the file) while other durable
 * work runs beside it, and replaces the file only after that work is durable too. If it rejects,
 * the file is left as it was, the temporary file is removed and the write rejects with its error.
 */
export async function writeFileAtomicAsync(
  path: string,
  content: string,
  mode: number,
  fs: AtomicWriteFs = fsPromises,
  renameAfter?: PromiseLike<void>,
): Promise<void> {
  const temporary = join(dirname(path), `.${basename(path)}.${process.pid}.${temporaryCounter++}.tmp`);
  const handle = await fs.open(temporary, "w", mode);
  try {
    const bytes = Buffer.from(content, "utf8");
    let written = 0;
    while (written < bytes.length) {
      written += (await handle.write(bytes, written, bytes.length - written)).bytesWritten;
    }
    await handle.sync();
  } catch (error) {
    await handle.close().catch(() => {});
    await fs.rm(temporary, { force: true }).catch(() => {});
    throw error;
  }
  await handle.close();
  try {
    if (renameAfter !== undefined) await renameAfter;
    await fs.rename(temporary, path);
  } catch (error) {
    await fs.rm(temporary, { force: true }).catch(() => {});
    throw error;
  }
  await fsyncDirectoryAsync(dirname(path), fs);
}

/**
 * As `fsyncDirectory`: a directory that cannot be opened, or a platform that cannot fsync one,
 * is not an error; an I/O error of the fsync is.
 */
async function fsyncDirectoryAsync(directory: string, fs: AtomicWriteFs): Promise<void> {
  let handle: AtomicWriteFileHandle;
  try {
    handle = await fs.open(directory, "r");
  } catch {
    return; // directories cannot be opened on every platform (e.g. Windows); the rename stands
  }
  try {
    await handle.sync();
  } catch (error) {
    if (!directoryFsyncUnsupported(error)) throw error;
  } finally {
    await handle.close().catch(() => {});
  }
}
