// An authenticated, encrypted byte stream over a socket: v0.34's SecretConnection.
// makeSecretConnection runs the symmetric handshake (both sides write before reading), then the
// object seals everything written and opens every 1044-byte frame read. Upper layers get a byte
// stream (onData) or whole varint-delimited messages (readMessage/writeMessage, as the remote
// signer protocol needs).

import type { Socket } from "node:net";
import type { Duplex } from "node:stream";
import { verifyEd25519 } from "../../crypto/index.js";
import { ByteQueue, peekUvarint } from "../byte-queue.js";
import { P2pError } from "../errors.js";
import { nodeIdFromPublicKey } from "../node-id.js";
import { delimit } from "../proto-reader.js";
import type { NodeId } from "../types.js";
import { makeEphemeralKeyPair, sharedSecret } from "./ephemeral-keys.js";
import { FrameOpener, FrameSealer, SEALED_FRAME_SIZE } from "./frames.js";
import {
  decodeAuthSig,
  decodeEphemeralKey,
  encodeAuthSig,
  encodeEphemeralKey,
} from "./handshake-messages.js";
import { handshakeIdentity } from "./identity.js";
import { deriveSessionKeys, secretConnectionChallenge, sortEphemeralKeys } from "./key-schedule.js";

/** Read limit of each handshake message (v0.34: 1 MiB). */
export const HANDSHAKE_MESSAGE_LIMIT = 1024 * 1024;

export interface SecretConnectionOptions {
  /** Fixed ephemeral X25519 private scalar; only golden tests set it. */
  ephemeralPrivateKey?: Uint8Array;
}

export interface SecretConnectionInfo {
  remotePublicKey: Uint8Array;
  remoteId: NodeId;
  /** Values of the handshake, kept for golden tests and diagnostics (never logged). */
  challenge: Uint8Array;
}

type Waiter = () => void;

export class SecretConnection {
  readonly rawIn = new ByteQueue();
  private readonly plainIn = new ByteQueue();
  private sealer?: FrameSealer;
  private opener?: FrameOpener;
  private plainListener?: (chunk: Uint8Array) => void;
  private readonly closeListeners: ((error: P2pError) => void)[] = [];
  private waiters: Waiter[] = [];
  private closeError?: P2pError;
  private info?: SecretConnectionInfo;

  constructor(readonly socket: Duplex) {
    socket.on("data", (chunk: Buffer) => this.onSocketData(chunk));
    socket.on("end", () => this.fail(new P2pError("P2P_CLOSED_BY_PEER", "connection closed by peer (EOF)")));
    socket.on("close", () => this.fail(new P2pError("P2P_CLOSED_BY_PEER", "connection closed")));
    socket.on("error", (error: Error) =>
      this.fail(new P2pError("P2P_SOCKET_ERROR", `socket error: ${error.message}`)),
    );
  }

  get remotePublicKey(): Uint8Array {
    return this.handshakeInfo().remotePublicKey;
  }

  get remoteId(): NodeId {
    return this.handshakeInfo().remoteId;
  }

  get challenge(): Uint8Array {
    return this.handshakeInfo().challenge;
  }

  get closed(): boolean {
    return this.closeError !== undefined;
  }

  /** Seals and writes bytes; false when the socket asks us to wait for 'drain' (or is closed). */
  write(data: Uint8Array): boolean {
    if (this.closeError !== undefined) return false;
    if (this.sealer === undefined) throw new Error("secret connection: write before the handshake finished");
    if (data.length === 0) return true;
    let sealed: Buffer;
    try {
      sealed = this.sealer.seal(data);
    } catch (error) {
      this.fail(error instanceof P2pError ? error : new P2pError("P2P_SOCKET_ERROR", String(error)));
      return false;
    }
    return this.socket.write(sealed);
  }

  /** Writes one varint-delimited message in a single Write (as v0.34's protoio writer does). */
  writeMessage(message: Uint8Array): boolean {
    return this.write(delimit(message));
  }

  /** Reads one varint-delimited message from the decrypted stream, refusing a length over maxBytes. */
  readMessage(maxBytes: number): Promise<Uint8Array> {
    if (this.plainListener !== undefined) throw new Error("secret connection: readMessage after onData");
    return this.readDelimited(this.plainIn, maxBytes, "message");
  }

  /**
   * Hands the decrypted byte stream to one listener, first whatever is already buffered (bytes
   * that arrived with the last handshake message), then every chunk as it is opened.
   */
  onData(listener: (chunk: Uint8Array) => void): void {
    this.plainListener = listener;
    if (this.plainIn.length > 0) listener(this.plainIn.takeAll());
  }

  /** Called once, when the connection fails or closes, with why. */
  onClose(listener: (error: P2pError) => void): void {
    if (this.closeError !== undefined) listener(this.closeError);
    else this.closeListeners.push(listener);
  }

  /** Called when the socket has flushed after write() returned false. */
  onDrain(listener: () => void): void {
    this.socket.on("drain", listener);
  }

  pause(): void {
    this.socket.pause();
  }

  resume(): void {
    if (this.closeError === undefined) this.socket.resume();
  }

  /** Ends the connection: pending writes are flushed, then the socket is destroyed. */
  close(reason: P2pError = new P2pError("P2P_CLOSED_BY_US", "closed by us")): void {
    if (this.closeError !== undefined) return;
    this.finish(reason);
    this.socket.end();
    // A peer that never reads must not hold the socket open: destroy after a grace period.
    const timer = setTimeout(() => this.socket.destroy(), 5000);
    timer.unref?.();
  }

  /** Ends the connection at once with an error (bad input, timeout). */
  fail(error: P2pError): void {
    if (this.closeError !== undefined) return;
    this.finish(error);
    this.socket.destroy();
  }

  /** Steps 1..18 of the v0.34 handshake. Rejects with a P2pError; the caller destroys on failure. */
  async handshake(
    nodePrivateKey: Uint8Array,
    options: SecretConnectionOptions = {},
  ): Promise<SecretConnectionInfo> {
    const identity = handshakeIdentity(nodePrivateKey);
    const ephemeral = makeEphemeralKeyPair(options.ephemeralPrivateKey);
    // Write first, read second: the exchange is symmetric and neither side may wait for the other.
    this.socket.write(delimit(encodeEphemeralKey(ephemeral.publicKey)));
    const theirEphemeral = decodeEphemeralKey(
      await this.readDelimited(this.rawIn, HANDSHAKE_MESSAGE_LIMIT, "ephemeral key"),
    );
    const { lo, hi, locIsLeast } = sortEphemeralKeys(ephemeral.publicKey, theirEphemeral);
    const dh = sharedSecret(ephemeral, theirEphemeral);
    const keys = deriveSessionKeys(dh, locIsLeast);
    const challenge = secretConnectionChallenge(lo, hi, dh);
    this.sealer = new FrameSealer(keys.sendKey);
    this.opener = new FrameOpener(keys.recvKey);
    this.openFrames(); // frames that arrived together with the key

    this.writeMessage(encodeAuthSig(identity.publicKey, identity.sign(challenge)));
    const auth = decodeAuthSig(
      await this.readDelimited(this.plainIn, HANDSHAKE_MESSAGE_LIMIT, "AuthSigMessage"),
    );
    if (!verifyEd25519(auth.ed25519PublicKey, challenge, auth.signature)) {
      throw new P2pError(
        "P2P_BAD_AUTH_SIG",
        "challenge verification failed: bad signature in AuthSigMessage",
      );
    }
    this.info = {
      remotePublicKey: auth.ed25519PublicKey,
      remoteId: nodeIdFromPublicKey(auth.ed25519PublicKey),
      challenge,
    };
    return this.info;
  }

  private handshakeInfo(): SecretConnectionInfo {
    if (this.info === undefined) throw new Error("secret connection: handshake not finished");
    return this.info;
  }

  private onSocketData(chunk: Buffer): void {
    if (this.closeError !== undefined) return;
    this.rawIn.push(chunk);
    if (this.opener !== undefined) this.openFrames();
    this.wake();
  }

  private openFrames(): void {
    const opener = this.opener;
    if (opener === undefined) return;
    while (this.rawIn.length >= SEALED_FRAME_SIZE && this.closeError === undefined) {
      let chunk: Uint8Array;
      try {
        chunk = opener.open(this.rawIn.take(SEALED_FRAME_SIZE));
      } catch (error) {
        this.fail(error instanceof P2pError ? error : new P2pError("P2P_BAD_FRAME", String(error)));
        return;
      }
      if (chunk.length === 0) continue;
      if (this.plainListener !== undefined) this.plainListener(chunk);
      else this.plainIn.push(chunk);
    }
  }

  private async readDelimited(queue: ByteQueue, maxBytes: number, what: string): Promise<Uint8Array> {
    for (;;) {
      const prefix = peekUvarint(queue);
      if (prefix === "overflow") throw new P2pError("P2P_BAD_FRAME", `${what}: malformed length prefix`);
      if (prefix !== undefined) {
        if (prefix.value > maxBytes) {
          throw new P2pError("P2P_BAD_FRAME", `${what}: length ${prefix.value} exceeds limit ${maxBytes}`);
        }
        if (queue.length >= prefix.length + prefix.value) {
          queue.take(prefix.length);
          return new Uint8Array(queue.take(prefix.value));
        }
      }
      // What arrived before a failure is still read; after it, the failure is the answer.
      if (this.closeError !== undefined) throw this.handshakeEofError(what);
      await new Promise<void>((resolve) => this.waiters.push(resolve));
    }
  }

  private handshakeEofError(what: string): P2pError {
    const error = this.closeError as P2pError;
    if (error.code === "P2P_CLOSED_BY_PEER") {
      return new P2pError("P2P_HANDSHAKE_EOF", `connection closed while reading ${what}`);
    }
    return error;
  }

  private wake(): void {
    const waiters = this.waiters;
    this.waiters = [];
    for (const resolve of waiters) resolve();
  }

  private finish(error: P2pError): void {
    this.closeError = error;
    this.rawIn.clear();
    this.wake();
    const listeners = this.closeListeners.splice(0);
    for (const listener of listeners) listener(error);
  }
}

/**
 * Runs the secret-connection handshake on an open socket and returns the encrypted connection,
 * or rejects with a P2pError (P2P_HANDSHAKE_TIMEOUT after timeoutMs, P2P_LOW_ORDER_KEY,
 * P2P_BAD_AUTH_SIG, P2P_BAD_MAC, ...) after destroying the socket.
 */
export async function makeSecretConnection(
  socket: Duplex,
  nodePrivateKey: Uint8Array,
  timeoutMs: number,
  options: SecretConnectionOptions = {},
): Promise<SecretConnection> {
  // Go sockets run with TCP_NODELAY; without it Nagle holds our small handshake writes for
  // the peer's delayed ACK (~40 ms per exchange).
  (socket as Partial<Socket>).setNoDelay?.(true);
  const connection = new SecretConnection(socket);
  const timer = setTimeout(
    () =>
      connection.fail(
        new P2pError("P2P_HANDSHAKE_TIMEOUT", `secret connection handshake took over ${timeoutMs} ms`),
      ),
    timeoutMs,
  );
  try {
    await connection.handshake(nodePrivateKey, options);
    return connection;
  } catch (error) {
    connection.fail(
      error instanceof P2pError
        ? error
        : new P2pError("P2P_SOCKET_ERROR", `handshake: ${(error as Error).message}`),
    );
    throw error;
  } finally {
    clearTimeout(timer);
  }
}
