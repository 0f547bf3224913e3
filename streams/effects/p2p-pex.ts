// PEX's effects: requests and answers go out on channel 0x00, dials and stops are handed to the
// switch, the address book is saved (one save at a time, atomically; a failure is logged and the
// next save tries again).
import { concatMap, EMPTY, from, merge, mergeMap, type Observable } from "rxjs";
import type { Logger } from "../../src/logger/index.js";
import type { AddrBook } from "../../src/p2p/addrbook/index.js";
import { saveAddrBook } from "../../src/p2p/addrbook/index.js";
import type { NetAddress } from "../../src/p2p/net-address.js";
import {
  encodePexAddrs,
  encodePexRequest,
  PEX_CHANNEL,
  type PexEffect,
  type PexInput,
} from "../../src/p2p/pex/index.js";
import type { PeerHub } from "../sources/peers.js";

export interface PexEffectDeps {
  hub: PeerHub;
  addrBookFile: string;
  dial(addresses: readonly NetAddress[], reason: string): void;
  stopPeer(id: string, reason: string, error: boolean): void;
  log: Logger;
}

export function pexEffectsHandler(deps: PexEffectDeps) {
  const { hub, log } = deps;
  const save = async (book: AddrBook) => {
    try {
      await saveAddrBook(deps.addrBookFile, book);
      log.debug("saved the address book", { file: deps.addrBookFile, addresses: book.addrs.size });
    } catch (error) {
      log.error("could not save the address book", {
        file: deps.addrBookFile,
        err: (error as Error).message,
      });
    }
  };
  return (effect$: Observable<PexEffect>): Observable<PexInput> => {
    const saves$ = effect$.pipe(
      concatMap((e) => (e.type === "SaveAddrBook" ? from(save(e.book)).pipe(mergeMap(() => EMPTY)) : EMPTY)),
    );
    const rest$ = effect$.pipe(
      mergeMap((e): Observable<PexInput> => {
        switch (e.type) {
          case "SendPexRequest":
            hub.send(e.to, PEX_CHANNEL, encodePexRequest());
            break;
          case "SendPexAddrs":
            hub.send(e.to, PEX_CHANNEL, encodePexAddrs(e.addrs));
            break;
          case "DialAddresses":
            log.debug("dialling addresses", { reason: e.reason, count: e.addresses.length });
            deps.dial(e.addresses, e.reason);
            break;
          case "StopPeer":
            if (e.error) log.info("stopping a misbehaving peer", { peer: e.id, reason: e.reason });
            deps.stopPeer(e.id, e.reason, e.error);
            break;
          case "PexNoted":
            log[e.level](e.message, e.fields);
            break;
          case "SaveAddrBook":
            break;
        }
        return EMPTY;
      }),
    );
    return merge(saves$, rest$);
  };
}
