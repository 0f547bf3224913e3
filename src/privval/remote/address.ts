// Addresses of the remote signer: "tcp://host:port" or "unix:///path" (v0.34's
// priv_validator_laddr forms; a bare host:port is tcp, as v0.34's ProtocolAndAddress reads it).

import { RemoteSignerError } from "./errors.js";

export type SignerAddress =
  | { protocol: "unix"; path: string; text: string }
  | { protocol: "tcp"; host: string; port: number; text: string };

export function parseSignerAddress(text: string, what: string): SignerAddress {
  const bad = (why: string) =>
    new RemoteSignerError(
      "PRIVVAL_REMOTE_BAD_ADDRESS",
      `${what}: ${JSON.stringify(text)} is not a signer address (${why}); expected tcp://host:port or unix:///path`,
    );
  if (text.startsWith("unix://")) {
    const path = text.slice("unix://".length);
    if (path === "") throw bad("no socket path");
    // A unix socket path is limited to 107 bytes by the kernel (sun_path).
    if (Buffer.byteLength(path) > 107) throw bad("the socket path is longer than 107 bytes");
    return { protocol: "unix", path, text };
  }
  const rest = text.startsWith("tcp://") ? text.slice("tcp://".length) : text;
  if (rest.includes("://")) throw bad("unknown protocol");
  if (rest.includes("@")) throw bad("a node ID is not used: v0.34's node-side key is new at each start");
  const m = /^(\[[0-9a-fA-F:.]+\]|[^:[\]]+):(\d{1,5})$/.exec(rest);
  if (!m) throw bad("expected host:port");
  const port = Number(m[2]);
  if (port > 65535) throw bad(`port ${port} out of range`);
  return { protocol: "tcp", host: m[1]!.replace(/^\[|\]$/g, ""), port, text: `tcp://${rest}` };
}
