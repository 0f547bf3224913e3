// A connection as both ends of the remote signer use it: bytes in, bytes out, one close. A plain
// socket (unix) is one; the secret connection over tcp is another. The drivers know nothing else.

import type { Socket } from "node:net";

export interface ByteLink {
  /** The peer, for logs. */
  readonly remote: string;
  /** Writes `bytes`; `done` runs once they are handed to the kernel (or with the error). */
  write(bytes: Uint8Array, done: (error?: Error) => void): void;
  onData(listener: (chunk: Uint8Array) => void): void;
  /** Runs once when the link ends, with why. */
  onClose(listener: (reason: string) => void): void;
  close(): void;
}

/** A socket as a link: its data, its end or error (one reason, once), destroy to close. */
export function socketLink(socket: Socket, remote: string): ByteLink {
  let closedWith: string | undefined;
  const closeListeners: ((reason: string) => void)[] = [];
  const finish = (reason: string) => {
    if (closedWith !== undefined) return;
    closedWith = reason;
    for (const l of closeListeners) l(reason);
  };
  socket.on("error", (error: NodeJS.ErrnoException) => finish(error.code ?? error.message));
  socket.on("close", () => finish("connection closed by the other end"));
  socket.setNoDelay?.(true);
  return {
    remote,
    write(bytes, done) {
      if (closedWith !== undefined) {
        done(new Error(`connection closed: ${closedWith}`));
        return;
      }
      socket.write(bytes, (error) => done(error ?? undefined));
    },
    onData(listener) {
      socket.on("data", (chunk: Buffer) => listener(chunk));
    },
    onClose(listener) {
      if (closedWith !== undefined) listener(closedWith);
      else closeListeners.push(listener);
    },
    close() {
      finish("closed by us");
      socket.destroy();
    },
  };
}
