// After a key or state file's rename, the directory's fsync makes the new name durable. A
// platform that cannot fsync a directory (EINVAL and kin) leaves the rename as it is; an I/O
// error of that fsync is the disk's, and the write must fail, not report a durable file.
import assert from "node:assert/strict";
import { promises as fsPromises, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, test } from "node:test";
import { type AtomicWriteFs, writeFileAtomicAsync } from "../../src/types/key-file-atomic-write.js";

const root = mkdtempSync(join(tmpdir(), "key-file-directory-fsync-"));
after(() => rmSync(root, { recursive: true, force: true }));

/** Real fs, but the directory's fsync fails with `code`. */
function directorySyncFails(directory: string, code: string): AtomicWriteFs {
  return {
    rename: (from, to) => fsPromises.rename(from, to),
    rm: (path, options) => fsPromises.rm(path, options),
    async open(path, flags, mode) {
      const handle = await fsPromises.open(path, flags, mode);
      if (path !== directory) return handle;
      return {
        write: (buffer, offset, length) => handle.write(buffer, offset, length),
        close: () => handle.close(),
        sync: () => Promise.reject(Object.assign(new Error(`${code}: directory fsync`), { code })),
      };
    },
  };
}

test("an I/O error of the directory's fsync fails the write", async () => {
  const path = join(root, "eio.json");
  await assert.rejects(writeFileAtomicAsync(path, "x", 0o600, directorySyncFails(root, "EIO")), /EIO/);
});

test("a platform that cannot fsync a directory leaves the rename as it is", async () => {
  const path = join(root, "einval.json");
  await writeFileAtomicAsync(path, "y", 0o600, directorySyncFails(root, "EINVAL"));
  assert.equal(readFileSync(path, "utf8"), "y");
});
