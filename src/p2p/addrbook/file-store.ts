// Loading and saving addrbook.json. Saving is atomic (temporary file, fsync, rename, as v0.34's
// tempfile.WriteFileAtomic): a crash leaves the old book or the new one. A file that cannot be
// read is moved aside with a clear reason and the node starts with an empty book: a damaged
// address book must not keep a node off the network.
import { existsSync, readFileSync, renameSync } from "node:fs";
import { writeFileAtomicAsync } from "../../types/key-file-atomic-write.js";
import type { AddrBook } from "./book.js";
import { emptyBook } from "./book.js";
import { AddrBookFileError, decodeAddrBook, encodeAddrBook } from "./file-format.js";

export interface LoadedBook {
  book: AddrBook;
  /** set when the file was unreadable and moved aside */
  problem?: { reason: string; movedTo: string };
}

export function loadAddrBook(
  file: string,
  strict: boolean,
  privateIds: ReadonlySet<string>,
  newKey: () => string,
  now: number,
): LoadedBook {
  if (!existsSync(file)) return { book: emptyBook(newKey(), strict, privateIds) };
  try {
    return { book: decodeAddrBook(readFileSync(file, "utf8"), strict, privateIds) };
  } catch (error) {
    if (!(error instanceof AddrBookFileError)) throw error;
    const movedTo = `${file}.bad-${now}`;
    renameSync(file, movedTo);
    return {
      book: emptyBook(newKey(), strict, privateIds),
      problem: { reason: `${file}: ${error.message}`, movedTo },
    };
  }
}

export async function saveAddrBook(file: string, book: AddrBook): Promise<void> {
  await writeFileAtomicAsync(file, encodeAddrBook(book), 0o644);
}
