// Parses proxy_app socket addresses: tcp://host:port, unix:///path (or unix://path), or a bare
// host:port as Tendermint accepts.
import { AbciError } from "../errors.js";

export type SocketAddress = { kind: "tcp"; host: string; port: number } | { kind: "unix"; path: string };

export function parseSocketAddress(address: string): SocketAddress {
  if (address.startsWith("unix://")) {
    const path = address.slice("unix://".length);
    if (path === "")
      throw new AbciError("ABCI_BAD_ADDRESS", `proxy_app "${address}" has an empty socket path`);
    return { kind: "unix", path };
  }
  const rest = address.startsWith("tcp://") ? address.slice("tcp://".length) : address;
  const colon = rest.lastIndexOf(":");
  const host = rest.slice(0, colon).replace(/^\[(.*)\]$/, "$1");
  const portText = rest.slice(colon + 1);
  const port = Number(portText);
  if (colon <= 0 || !/^\d+$/.test(portText) || port < 1 || port > 65535) {
    throw new AbciError(
      "ABCI_BAD_ADDRESS",
      `proxy_app "${address}" is not tcp://host:port, unix:///path or an app name (kvstore, counter, noop)`,
    );
  }
  return { kind: "tcp", host, port };
}

export function formatSocketAddress(a: SocketAddress): string {
  return a.kind === "unix" ? `unix://${a.path}` : `tcp://${a.host}:${a.port}`;
}
