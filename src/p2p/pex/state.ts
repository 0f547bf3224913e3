// PEX's state: the address book, what we asked whom, how often each peer asked us, the dial
// attempts of book addresses, and (seed mode) what we crawled when.
import type { AddrBook } from "../addrbook/book.js";
import type { NetAddress } from "../net-address.js";

export interface PexConfig {
  ourId: string;
  seedMode: boolean;
  seeds: readonly NetAddress[];
  maxOutbound: number;
  /** v0.34's ensurePeersPeriod (30 s); requests closer than a third of it are abuse */
  ensurePeersPeriodMs: number;
}

export interface PexPeer {
  id: string;
  outbound: boolean;
  /** dialled address (outbound) or self-reported one (inbound) */
  address: NetAddress | undefined;
  persistent: boolean;
  addedAt: number;
}

export interface PexState {
  config: PexConfig;
  book: AddrBook;
  peers: ReadonlyMap<string, PexPeer>;
  /** peers we asked and that have not answered */
  requestsSent: ReadonlySet<string>;
  /** per peer: time of the last accepted request (0 after the first: the second is always allowed) */
  lastRequest: ReadonlyMap<string, number>;
  /** dial attempts of book addresses, by dial string */
  dialAttempts: ReadonlyMap<string, { attempts: number; lastDialed: number }>;
  /** seed mode: when each id was last crawled */
  crawled: ReadonlyMap<string, number>;
  /** the book changed since it was last saved */
  dirty: boolean;
}

export function initialPexState(config: PexConfig, book: AddrBook): PexState {
  return {
    config,
    book,
    peers: new Map(),
    requestsSent: new Set(),
    lastRequest: new Map(),
    dialAttempts: new Map(),
    crawled: new Map(),
    dirty: false,
  };
}
