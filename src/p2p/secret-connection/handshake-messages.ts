// The two handshake messages: the plaintext ephemeral key (google.protobuf.BytesValue) and the
// encrypted AuthSigMessage {pub_key: tendermint.crypto.PublicKey (always emitted), sig}.

import { P2pError } from "../errors.js";
import { ProtoDecodeError, ProtoReader, ProtoWriter, WIRE_LEN } from "../proto-reader.js";
import { X25519_KEY_SIZE } from "./ephemeral-keys.js";

export function encodeEphemeralKey(publicKey: Uint8Array): Uint8Array {
  return new ProtoWriter().bytesField(1, publicKey).finish();
}

/**
 * The remote ephemeral key. Go zero-pads or truncates a value of the wrong length, but always
 * sends 32 bytes itself, so we insist on exactly 32 (a wrong length is a broken or hostile peer).
 */
export function decodeEphemeralKey(body: Uint8Array): Uint8Array {
  let value: Uint8Array = new Uint8Array(0);
  try {
    const reader = new ProtoReader(body, "ephemeral key BytesValue");
    while (!reader.done) {
      const { field, wire } = reader.tag();
      if (field === 1) {
        reader.expect(field, wire, WIRE_LEN);
        value = reader.lengthDelimited();
      } else reader.skip(wire);
    }
  } catch (error) {
    throw new P2pError("P2P_BAD_EPHEMERAL_KEY", (error as Error).message);
  }
  if (value.length !== X25519_KEY_SIZE) {
    throw new P2pError("P2P_BAD_EPHEMERAL_KEY", `remote ephemeral key is ${value.length} bytes, expected 32`);
  }
  return value.slice();
}

export function encodeAuthSig(ed25519PublicKey: Uint8Array, signature: Uint8Array): Uint8Array {
  const publicKey = new ProtoWriter().bytesField(1, ed25519PublicKey).finish();
  return new ProtoWriter().bytesField(1, publicKey, true).bytesField(2, signature).finish();
}

export interface AuthSig {
  ed25519PublicKey: Uint8Array;
  signature: Uint8Array;
}

/** Decodes AuthSigMessage; only an ed25519 identity of 32 bytes and a 64-byte signature pass. */
export function decodeAuthSig(body: Uint8Array): AuthSig {
  let ed25519: Uint8Array | undefined;
  let otherKeyType: string | undefined;
  let signature: Uint8Array = new Uint8Array(0);
  try {
    const reader = new ProtoReader(body, "AuthSigMessage");
    while (!reader.done) {
      const { field, wire } = reader.tag();
      if (field === 1) {
        reader.expect(field, wire, WIRE_LEN);
        const keyReader = new ProtoReader(reader.lengthDelimited(), "AuthSigMessage.pub_key");
        while (!keyReader.done) {
          const key = keyReader.tag();
          if (key.field === 1 || key.field === 2) {
            keyReader.expect(key.field, key.wire, WIRE_LEN);
            const bytes = keyReader.lengthDelimited();
            if (key.field === 1) {
              ed25519 = bytes;
              otherKeyType = undefined;
            } else {
              otherKeyType = "secp256k1";
              ed25519 = undefined;
            }
          } else keyReader.skip(key.wire);
        }
      } else if (field === 2) {
        reader.expect(field, wire, WIRE_LEN);
        signature = reader.lengthDelimited();
      } else reader.skip(wire);
    }
  } catch (error) {
    if (error instanceof ProtoDecodeError) throw new P2pError("P2P_BAD_AUTH_SIG", error.message);
    throw error;
  }
  if (otherKeyType !== undefined) {
    throw new P2pError("P2P_BAD_AUTH_SIG", `expected ed25519 pubkey, got ${otherKeyType}`);
  }
  if (ed25519 === undefined) throw new P2pError("P2P_BAD_AUTH_SIG", "AuthSigMessage carries no public key");
  if (ed25519.length !== 32) {
    throw new P2pError("P2P_BAD_AUTH_SIG", `ed25519 public key is ${ed25519.length} bytes, expected 32`);
  }
  if (signature.length !== 64) {
    throw new P2pError("P2P_BAD_AUTH_SIG", `signature is ${signature.length} bytes, expected 64`);
  }
  return { ed25519PublicKey: ed25519.slice(), signature: signature.slice() };
}
