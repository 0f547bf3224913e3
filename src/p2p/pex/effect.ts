import type { AddrBook } from "../addrbook/book.js";
import type { NetAddress } from "../net-address.js";
import type { WireAddress } from "./messages.js";

export type PexEffect =
  | { type: "SendPexRequest"; to: string }
  | { type: "SendPexAddrs"; to: string; addrs: readonly WireAddress[] }
  /** dial these now (the switch applies its own filters) */
  | { type: "DialAddresses"; addresses: readonly NetAddress[]; reason: string }
  | { type: "StopPeer"; id: string; reason: string; error: boolean }
  | { type: "SaveAddrBook"; book: AddrBook }
  /** something worth a log line (an address refused, a ban) */
  | { type: "PexNoted"; level: "debug" | "info"; message: string; fields: Record<string, string | number> };
