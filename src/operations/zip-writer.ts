// A minimal, correct ZIP writer (PKWARE APPNOTE 6.3: local headers, central directory, end of
// central directory; no ZIP64) for the debug bundle. Each entry is deflated when that makes it
// smaller, else stored. Names are UTF-8 (flag bit 11). Sizes are bounded so ZIP64 is never needed.
import * as zlib from "node:zlib";

export interface ZipEntry {
  name: string;
  data: Uint8Array;
}

/** Largest entry and archive accepted (ZIP without ZIP64 stops at 4 GiB; we stop well before). */
export const MAX_ZIP_ENTRY_BYTES = 1024 * 1024 * 1024;
const MAX_ENTRIES = 65_535;

const CRC_TABLE = (() => {
  const table = new Uint32Array(256);
  for (let n = 0; n < 256; n++) {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    table[n] = c >>> 0;
  }
  return table;
})();

/** CRC-32 (ISO-HDLC, as ZIP uses): zlib.crc32 where Node has it (≥ 20.15), else a table. */
export function crc32(data: Uint8Array): number {
  const native = (zlib as { crc32?: (d: Uint8Array) => number }).crc32;
  if (native) return native(data) >>> 0;
  let c = 0xffffffff;
  for (let i = 0; i < data.length; i++) c = CRC_TABLE[(c ^ data[i]!) & 0xff]! ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}

/** MS-DOS date and time of `date` (local time, 2-second resolution; 1980 at the earliest). */
function dosDateTime(date: Date): { time: number; day: number } {
  const year = Math.max(1980, date.getFullYear());
  return {
    time: (date.getHours() << 11) | (date.getMinutes() << 5) | Math.floor(date.getSeconds() / 2),
    day: ((year - 1980) << 9) | ((date.getMonth() + 1) << 5) | date.getDate(),
  };
}

export function buildZip(entries: readonly ZipEntry[], modified: Date = new Date()): Buffer {
  if (entries.length > MAX_ENTRIES) throw new RangeError(`a zip holds at most ${MAX_ENTRIES} entries`);
  const { time, day } = dosDateTime(modified);
  const locals: Buffer[] = [];
  const centrals: Buffer[] = [];
  const names = new Set<string>();
  let offset = 0;
  for (const entry of entries) {
    if (entry.name === "" || entry.name.startsWith("/") || entry.name.split("/").includes("..")) {
      throw new RangeError(`zip entry name "${entry.name}" must be a relative path without ".."`);
    }
    if (names.has(entry.name)) throw new RangeError(`zip entry "${entry.name}" appears twice`);
    names.add(entry.name);
    if (entry.data.length > MAX_ZIP_ENTRY_BYTES) {
      throw new RangeError(`zip entry "${entry.name}" is larger than ${MAX_ZIP_ENTRY_BYTES} bytes`);
    }
    const name = Buffer.from(entry.name, "utf8");
    const crc = crc32(entry.data);
    const deflated = zlib.deflateRawSync(entry.data);
    const store = deflated.length >= entry.data.length;
    const body = store ? Buffer.from(entry.data) : deflated;
    const method = store ? 0 : 8;

    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(20, 4); // version needed: 2.0 (deflate)
    local.writeUInt16LE(0x0800, 6); // UTF-8 names
    local.writeUInt16LE(method, 8);
    local.writeUInt16LE(time, 10);
    local.writeUInt16LE(day, 12);
    local.writeUInt32LE(crc, 14);
    local.writeUInt32LE(body.length, 18);
    local.writeUInt32LE(entry.data.length, 22);
    local.writeUInt16LE(name.length, 26);
    local.writeUInt16LE(0, 28);
    locals.push(local, name, body);

    const central = Buffer.alloc(46);
    central.writeUInt32LE(0x02014b50, 0);
    central.writeUInt16LE((3 << 8) | 20, 4); // made by: Unix, 2.0
    central.writeUInt16LE(20, 6);
    central.writeUInt16LE(0x0800, 8);
    central.writeUInt16LE(method, 10);
    central.writeUInt16LE(time, 12);
    central.writeUInt16LE(day, 14);
    central.writeUInt32LE(crc, 16);
    central.writeUInt32LE(body.length, 20);
    central.writeUInt32LE(entry.data.length, 24);
    central.writeUInt16LE(name.length, 28);
    central.writeUInt16LE(0, 30); // extra
    central.writeUInt16LE(0, 32); // comment
    central.writeUInt16LE(0, 34); // disk
    central.writeUInt16LE(0, 36); // internal attributes
    central.writeUInt32LE((0o100600 << 16) >>> 0, 38); // regular file, 0600
    central.writeUInt32LE(offset, 42);
    centrals.push(central, name);

    offset += local.length + name.length + body.length;
    if (offset > 0xfffffffe) throw new RangeError("the zip would need ZIP64 (over 4 GiB)");
  }
  const centralSize = centrals.reduce((n, b) => n + b.length, 0);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(0, 4);
  end.writeUInt16LE(0, 6);
  end.writeUInt16LE(entries.length, 8);
  end.writeUInt16LE(entries.length, 10);
  end.writeUInt32LE(centralSize, 12);
  end.writeUInt32LE(offset, 16);
  end.writeUInt16LE(0, 20);
  return Buffer.concat([...locals, ...centrals, end]);
}
