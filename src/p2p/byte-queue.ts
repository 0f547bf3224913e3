// A FIFO of bytes received from a socket in arbitrary pieces. TCP delivers whatever it has, so a
// single 'data' event can hold half a frame or a key plus the start of the next frame: every
// layer reads exact byte counts from one of these and leaves the rest for the next read.

export class ByteQueue {
  private chunks: Uint8Array[] = [];
  private head = 0; // bytes already consumed from chunks[0]
  private size = 0;

  get length(): number {
    return this.size;
  }

  push(chunk: Uint8Array): void {
    if (chunk.length === 0) return;
    this.chunks.push(chunk);
    this.size += chunk.length;
  }

  /** The byte at `index` from the front, without consuming it (index < length). */
  byteAt(index: number): number {
    let i = index + this.head;
    for (const chunk of this.chunks) {
      if (i < chunk.length) return chunk[i];
      i -= chunk.length;
    }
    throw new RangeError(`byteAt(${index}) beyond ${this.size} queued bytes`);
  }

  /** Removes and returns the first `n` bytes (n ≤ length). Shares memory when it can. */
  take(n: number): Uint8Array {
    if (n > this.size) throw new RangeError(`take(${n}) beyond ${this.size} queued bytes`);
    this.size -= n;
    const first = this.chunks[0];
    if (first !== undefined && first.length - this.head >= n) {
      const out = first.subarray(this.head, this.head + n);
      this.head += n;
      if (this.head === first.length) {
        this.chunks.shift();
        this.head = 0;
      }
      return out;
    }
    const out = new Uint8Array(n);
    let filled = 0;
    while (filled < n) {
      const chunk = this.chunks[0];
      const available = chunk.length - this.head;
      const want = Math.min(available, n - filled);
      out.set(chunk.subarray(this.head, this.head + want), filled);
      filled += want;
      this.head += want;
      if (this.head === chunk.length) {
        this.chunks.shift();
        this.head = 0;
      }
    }
    return out;
  }

  /** Removes the first `n` bytes (n ≤ length) without returning them (a length prefix already read). */
  skip(n: number): void {
    if (n > this.size) throw new RangeError(`skip(${n}) beyond ${this.size} queued bytes`);
    this.size -= n;
    while (n > 0) {
      const chunk = this.chunks[0]!;
      const step = Math.min(n, chunk.length - this.head);
      n -= step;
      this.head += step;
      if (this.head === chunk.length) {
        this.chunks.shift();
        this.head = 0;
      }
    }
  }

  /** Removes and returns everything queued. */
  takeAll(): Uint8Array {
    return this.take(this.size);
  }

  clear(): void {
    this.chunks = [];
    this.head = 0;
    this.size = 0;
  }
}

/**
 * Reads a uvarint length prefix at the front of the queue without consuming it.
 * Returns undefined when more bytes are needed, or "overflow" when it is longer than 10 bytes
 * or exceeds 2^53 (no message of ours can be that long).
 */
export function peekUvarint(queue: ByteQueue): { value: number; length: number } | undefined | "overflow" {
  let value = 0;
  let scale = 1;
  for (let i = 0; i < 10; i++) {
    if (i >= queue.length) return undefined;
    const byte = queue.byteAt(i);
    value += (byte & 0x7f) * scale;
    if (value > Number.MAX_SAFE_INTEGER) return "overflow";
    if ((byte & 0x80) === 0) return { value, length: i + 1 };
    scale *= 128;
  }
  return "overflow";
}
