// Segment file naming and directory durability. A log directory holds `wal.<12 digits>` files;
// the number orders them, so lexical order is log order.

import { open, readdir } from "node:fs/promises";
import { join } from "node:path";

const SEGMENT_PATTERN = /^wal\.(\d{12})$/;

export interface SegmentFile {
  index: number;
  path: string;
}

export function segmentPath(dir: string, index: number): string {
  return join(dir, `wal.${String(index).padStart(12, "0")}`);
}

/** The segments of a log directory in log order; other files are ignored. */
export async function listSegments(dir: string): Promise<SegmentFile[]> {
  const names = await readdir(dir);
  const segments: SegmentFile[] = [];
  for (const name of names) {
    const m = SEGMENT_PATTERN.exec(name);
    if (m) segments.push({ index: Number(m[1]), path: join(dir, name) });
  }
  return segments.sort((a, b) => a.index - b.index);
}

/** fsync of a directory, so that files created, renamed or removed in it survive a power loss. */
export async function syncDirectory(dir: string): Promise<void> {
  const handle = await open(dir, "r");
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
}
