// Durable, atomic replacement of a small file: write a temporary file beside it, fsync it,
// rename it over the target, fsync the directory. A crash leaves the old file or the new one,
// never a torn mix; that matters most for priv_validator_state.json (double-sign protection).
import { closeSync, fsyncSync, openSync, renameSync, rmSync, writeSync } from "node:fs";
import { basename, dirname, join } from "node:path";

export function writeFileAtomic(path: string, content: string, mode: number): void {
  const temporary = join(dirname(path), `.${basename(path)}.${process.pid}.tmp`);
  const fd = openSync(temporary, "w", mode);
  try {
    const bytes = Buffer.from(content, "utf8");
    let written = 0;
    while (written < bytes.length) written += writeSync(fd, bytes, written, bytes.length - written);
    fsyncSync(fd);
  } catch (error) {
    closeSync(fd);
    rmSync(temporary, { force: true });
    throw error;
  }
  closeSync(fd);
  renameSync(temporary, path);
  fsyncDirectory(dirname(path));
}

/** Makes a rename durable; some platforms cannot open a directory, which is not an error. */
function fsyncDirectory(directory: string): void {
  let fd: number | undefined;
  try {
    fd = openSync(directory, "r");
    fsyncSync(fd);
  } catch {
    // Directories cannot be fsynced on every platform (e.g. Windows); the rename stands.
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}
