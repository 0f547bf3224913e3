// The signer's state file replaced without creating a file each time (state-file-worker.ts). A
// fresh temporary file costs its fsync a new inode, its blocks and a directory entry in the file
// system's journal, on the critical path of every signature, beside the log's fdatasync. Instead,
// right before the rename, the state file's current inode is given a second name (a hard link,
// `.<name>.spare-a` or `-b`, in the same directory fsync as the rename); once that fsync is done
// the old inode is reachable only through the spare name, and the next stage overwrites it in
// place (write at offset 0, truncate to the new length, fdatasync): no allocation, no new
// directory entry, the same rename and directory fsync after it.
//
// Why the crash rules hold: the spare is written only after the directory fsync that made the
// state file point at the newer inode returned, so the bytes being overwritten are never the
// state file's; a spare is trusted only within the thread that linked it. A crash between the
// link and that fsync can leave the spare name on the state file's own inode, so the first stage
// of each path in a thread's life removes both spare names before anything else. A link that
// fails (a file system without hard links) just leaves the next stage a fresh temporary file.

import {
  fchmodSync,
  fstatSync,
  ftruncateSync,
  linkSync,
  lstatSync,
  openSync,
  rmSync,
  writeSync,
} from "node:fs";
import { basename, dirname, join } from "node:path";

interface Spares {
  /** A spare name whose inode is no longer the state file's: the next stage may overwrite it. */
  available: string | undefined;
  /** The spare name a stage is writing (or has staged), until its rename or its removal. */
  inUse: string | undefined;
}

const byPath = new Map<string, Spares>();

function namesOf(path: string): [string, string] {
  const prefix = join(dirname(path), `.${basename(path)}.spare-`);
  return [`${prefix}a`, `${prefix}b`];
}

function sparesOf(path: string): Spares {
  let spares = byPath.get(path);
  if (spares === undefined) {
    // Left by an earlier run: possibly a second name of the state file itself. Never reuse.
    for (const name of namesOf(path)) rmSync(name, { force: true });
    spares = { available: undefined, inUse: undefined };
    byPath.set(path, spares);
  }
  return spares;
}

/**
 * Takes the spare of `path` for a stage, when there is one: `content` written over it at offset 0
 * and cut to its length, the file's mode set to `mode` if it differs; returns its name and open
 * descriptor (the caller fdatasyncs and closes it). Undefined: no spare, stage a fresh file.
 * On a write failure the spare is removed and the error thrown.
 */
export function writeSpare(
  path: string,
  content: string,
  mode: number,
): { name: string; fd: number } | undefined {
  const spares = sparesOf(path);
  const name = spares.available;
  if (name === undefined) return undefined;
  spares.available = undefined;
  spares.inUse = name;
  let fd: number | undefined;
  try {
    fd = openSync(name, "r+");
    const bytes = Buffer.from(content, "utf8");
    let written = 0;
    while (written < bytes.length) written += writeSync(fd, bytes, written, bytes.length - written, written);
    ftruncateSync(fd, bytes.length);
    if ((fstatSync(fd).mode & 0o777) !== mode) fchmodSync(fd, mode);
    return { name, fd };
  } catch (error) {
    releaseSpare(path, name);
    throw error;
  }
}

/** A staged spare that will not be renamed (aborted, failed): removed, so it is never reused. */
export function releaseSpare(path: string, name: string): void {
  const spares = byPath.get(path);
  if (spares?.inUse === name) spares.inUse = undefined;
  rmSync(name, { force: true });
}

/**
 * Right before `staged` is renamed over `path`: a spare name linked to the state file's current
 * inode. Returns that name, or undefined when a spare is already waiting or the link failed.
 * The caller passes the name to `spareLinked` once the directory fsync after the rename returned,
 * or to `releaseSpare` if the rename or the fsync failed.
 */
export function linkSpare(path: string, staged: string): string | undefined {
  const spares = sparesOf(path);
  if (spares.inUse === staged) spares.inUse = undefined;
  if (spares.available !== undefined) return undefined;
  const name = namesOf(path).find((n) => n !== staged && n !== spares.inUse);
  if (name === undefined) return undefined;
  try {
    // A symbolic link's name would lead the next stage's write to the file it points at.
    if (!lstatSync(path).isFile()) return undefined;
    rmSync(name, { force: true });
    linkSync(path, name);
    return name;
  } catch {
    return undefined;
  }
}

/** The rename and the directory fsync after `linkSpare` returned: its name may be overwritten now. */
export function spareLinked(path: string, name: string): void {
  const spares = sparesOf(path);
  if (spares.available === undefined && spares.inUse !== name) spares.available = name;
  else rmSync(name, { force: true });
}
