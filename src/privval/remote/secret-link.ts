// The tcp transport of the remote signer: v0.34's secret connection (src/p2p/secret-connection)
// under the same plain frames as unix. Each end uses an ed25519 key made fresh at each start, as
// v0.34's node does (NewSignerListener: ed25519.GenPrivKey()); the connection is encrypted, and
// the signer's key is checked by the listener machine on every connection.

import type { Socket } from "node:net";
import { generateEd25519KeyPair } from "../../crypto/ed25519-keys.js";
import {
  makeSecretConnection,
  type SecretConnection,
} from "../../p2p/secret-connection/secret-connection.js";
import type { ByteLink } from "./byte-link.js";

/** A key for one process's secret connections (64 bytes, seed ‖ public key). */
export function freshConnectionKey(): Uint8Array {
  return generateEd25519KeyPair().privateKey;
}

/** Upgrades `socket` to a secret connection within `timeoutMs` and wraps it as a link. */
export async function secretLink(socket: Socket, key: Uint8Array, timeoutMs: number): Promise<ByteLink> {
  const remote = `${socket.remoteAddress}:${socket.remotePort}`;
  socket.setNoDelay(true);
  const connection = await makeSecretConnection(socket, key, timeoutMs);
  return linkOf(connection, remote);
}

function linkOf(connection: SecretConnection, remote: string): ByteLink {
  return {
    remote,
    write(bytes, done) {
      if (connection.closed) {
        done(new Error("connection closed"));
        return;
      }
      if (connection.write(bytes)) setImmediate(() => done());
      else if (connection.closed) done(new Error("connection closed"));
      else connection.socket.once("drain", () => done());
    },
    onData(listener) {
      connection.onData(listener);
    },
    onClose(listener) {
      connection.onClose((error) => listener(error.message));
    },
    close() {
      connection.close();
    },
  };
}
