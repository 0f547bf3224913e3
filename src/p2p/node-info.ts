// DefaultNodeInfo: what two nodes tell each other after the secret handshake, encoded exactly as
// gogoproto does in v0.34 (protocol_version and other always emitted, defaults omitted), and
// v0.34's Validate / CompatibleWith rules, applied to the peer's copy.

import { P2pError } from "./errors.js";
import { nodeIdProblem } from "./node-id.js";
import { ProtoDecodeError, ProtoReader, ProtoWriter, WIRE_LEN, WIRE_VARINT } from "./proto-reader.js";
import type { NodeInfo } from "./types.js";

/** Read limit of the peer's NodeInfo (v0.34's maxNodeInfoSize). */
export const MAX_NODE_INFO_SIZE = 10240;
/** At most this many channels in a NodeInfo. */
export const MAX_NUM_CHANNELS = 16;
/** P2P protocol version of v0.34. */
export const P2P_PROTOCOL_VERSION = 8n;
/** Block protocol version of v0.34 chains. */
export const BLOCK_PROTOCOL_VERSION = 11n;

export function encodeNodeInfo(info: NodeInfo): Uint8Array {
  const version = new ProtoWriter()
    .varintField(1, info.protocolVersion.p2p)
    .varintField(2, info.protocolVersion.block)
    .varintField(3, info.protocolVersion.app)
    .finish();
  const other = new ProtoWriter()
    .bytesField(1, info.other.txIndex)
    .bytesField(2, info.other.rpcAddress)
    .finish();
  return new ProtoWriter()
    .bytesField(1, version, true)
    .bytesField(2, info.defaultNodeId)
    .bytesField(3, info.listenAddr)
    .bytesField(4, info.network)
    .bytesField(5, info.version)
    .bytesField(6, info.channels)
    .bytesField(7, info.moniker)
    .bytesField(8, other, true)
    .finish();
}

/** Decodes a peer's DefaultNodeInfo; malformed bytes are P2P_BAD_NODE_INFO. */
export function decodeNodeInfo(body: Uint8Array): NodeInfo {
  const info: NodeInfo = {
    protocolVersion: { p2p: 0n, block: 0n, app: 0n },
    defaultNodeId: "",
    listenAddr: "",
    network: "",
    version: "",
    channels: new Uint8Array(0),
    moniker: "",
    other: { txIndex: "", rpcAddress: "" },
  };
  try {
    const reader = new ProtoReader(body, "DefaultNodeInfo");
    while (!reader.done) {
      const { field, wire } = reader.tag();
      switch (field) {
        case 1: {
          reader.expect(field, wire, WIRE_LEN);
          const v = new ProtoReader(reader.lengthDelimited(), "DefaultNodeInfo.protocol_version");
          while (!v.done) {
            const t = v.tag();
            if (t.field >= 1 && t.field <= 3) {
              v.expect(t.field, t.wire, WIRE_VARINT);
              const value = v.varintBig();
              if (t.field === 1) info.protocolVersion.p2p = value;
              else if (t.field === 2) info.protocolVersion.block = value;
              else info.protocolVersion.app = value;
            } else v.skip(t.wire);
          }
          break;
        }
        case 2:
        case 3:
        case 4:
        case 5:
        case 7: {
          reader.expect(field, wire, WIRE_LEN);
          const value = reader.string();
          if (field === 2) info.defaultNodeId = value;
          else if (field === 3) info.listenAddr = value;
          else if (field === 4) info.network = value;
          else if (field === 5) info.version = value;
          else info.moniker = value;
          break;
        }
        case 6:
          reader.expect(field, wire, WIRE_LEN);
          info.channels = reader.lengthDelimited().slice();
          break;
        case 8: {
          reader.expect(field, wire, WIRE_LEN);
          const o = new ProtoReader(reader.lengthDelimited(), "DefaultNodeInfo.other");
          while (!o.done) {
            const t = o.tag();
            if (t.field === 1 || t.field === 2) {
              o.expect(t.field, t.wire, WIRE_LEN);
              if (t.field === 1) info.other.txIndex = o.string();
              else info.other.rpcAddress = o.string();
            } else o.skip(t.wire);
          }
          break;
        }
        default:
          reader.skip(wire);
      }
    }
  } catch (error) {
    if (error instanceof ProtoDecodeError) throw new P2pError("P2P_BAD_NODE_INFO", error.message);
    throw error;
  }
  return info;
}

const isPrintableAscii = (s: string) => /^[\x20-\x7e]*$/.test(s);
const isBlank = (s: string) => s.trim() === "";

/**
 * v0.34's DefaultNodeInfo.Validate(): listen address parses as id@host:port (scheme dropped),
 * version and rpc_address printable ASCII or empty, at most 16 unique channels, moniker required
 * and printable, tx_index "", "on" or "off". Returns the first problem, or undefined.
 */
export function nodeInfoProblem(info: NodeInfo): string | undefined {
  const idProblem = nodeIdProblem(info.defaultNodeId);
  if (idProblem !== undefined) return `default_node_id: ${idProblem}`;
  const addressProblem = listenAddrProblem(info.listenAddr);
  if (addressProblem !== undefined)
    return `listen_addr ${JSON.stringify(info.listenAddr)}: ${addressProblem}`;
  if (info.version !== "" && (!isPrintableAscii(info.version) || isBlank(info.version))) {
    return `version ${JSON.stringify(info.version)} must be printable ASCII and not blank`;
  }
  if (info.channels.length > MAX_NUM_CHANNELS) {
    return `${info.channels.length} channels, at most ${MAX_NUM_CHANNELS} allowed`;
  }
  const seen = new Set<number>();
  for (const id of info.channels) {
    if (seen.has(id)) return `channel 0x${id.toString(16)} listed twice`;
    seen.add(id);
  }
  if (info.moniker === "" || !isPrintableAscii(info.moniker) || isBlank(info.moniker)) {
    return `moniker ${JSON.stringify(info.moniker)} must be non-empty printable ASCII`;
  }
  if (!["", "on", "off"].includes(info.other.txIndex)) {
    return `other.tx_index ${JSON.stringify(info.other.txIndex)} must be "", "on" or "off"`;
  }
  const rpc = info.other.rpcAddress;
  if (rpc !== "" && (!isPrintableAscii(rpc) || isBlank(rpc))) {
    return `other.rpc_address ${JSON.stringify(rpc)} must be printable ASCII and not blank`;
  }
  return undefined;
}

/**
 * The listen address must be host:port after an optional scheme (v0.34 parses "<id>@addr").
 * Host names are accepted (Go would resolve them); the port must be a decimal 0..65535.
 */
export function listenAddrProblem(listenAddr: string): string | undefined {
  let address = listenAddr;
  const scheme = address.indexOf("://");
  if (scheme >= 0) {
    address = address.slice(scheme + 3);
    const next = address.indexOf("://");
    if (next >= 0) address = address.slice(0, next);
  }
  if (address.includes("@")) return "must not contain @";
  let host: string;
  let port: string;
  if (address.startsWith("[")) {
    const close = address.indexOf("]");
    if (close < 0 || address[close + 1] !== ":") return "malformed [IPv6]:port";
    host = address.slice(1, close);
    port = address.slice(close + 2);
  } else {
    const colon = address.lastIndexOf(":");
    if (colon < 0) return "missing port";
    host = address.slice(0, colon);
    port = address.slice(colon + 1);
    if (host.includes(":")) return "IPv6 host must be in brackets";
  }
  if (host === "") return "missing host";
  if (!/^[0-9]{1,5}$/.test(port) || Number(port) > 65535)
    return `port ${JSON.stringify(port)} is not 0..65535`;
  if (!/^[A-Za-z0-9.\-_:%]+$/.test(host)) return `host ${JSON.stringify(host)} is not an IP or host name`;
  return undefined;
}

/**
 * v0.34's CompatibleWith: same block protocol, same network, and at least one common channel
 * (skipped only when we list none). Returns the problem, or undefined.
 */
export function incompatibility(ours: NodeInfo, theirs: NodeInfo): string | undefined {
  if (ours.protocolVersion.block !== theirs.protocolVersion.block) {
    return `peer is on a different block protocol version: ours ${ours.protocolVersion.block}, theirs ${theirs.protocolVersion.block}`;
  }
  if (ours.network !== theirs.network) {
    return `peer is on a different network: ours ${JSON.stringify(ours.network)}, theirs ${JSON.stringify(theirs.network)}`;
  }
  if (ours.channels.length === 0) return undefined;
  const theirChannels = new Set(theirs.channels);
  if (!ours.channels.some((id) => theirChannels.has(id))) {
    return `no common channels: ours ${Buffer.from(ours.channels).toString("hex")}, theirs ${Buffer.from(theirs.channels).toString("hex")}`;
  }
  return undefined;
}
