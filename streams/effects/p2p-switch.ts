// The switch's effects carried out on sockets: dial (TCP connect within dial_timeout, then the
// handshake), upgrade accepted sockets, close connections the switch refused or cut, admit peers
// into the hub, disconnect peers. What happens comes back as switch inputs (time and seed are
// stamped by the loop). The decisions are all in src/p2p/switch; nothing is decided here.
import { connect, type Socket } from "node:net";
import { EMPTY, from, merge, mergeMap, type Observable, Subject } from "rxjs";
import type { Logger } from "../../src/logger/index.js";
import { formatNetAddress, type NetAddress, parseAddressSpec } from "../../src/p2p/net-address.js";
import type { SwitchEffect, SwitchInput } from "../../src/p2p/switch/index.js";
import type { PeerConnection } from "../../src/p2p/types.js";
import type { PeerHub } from "../sources/peers.js";

/** An input before the loop stamps its time and seed. */
type Unstamped<T> = T extends unknown ? Omit<T, "time" | "seed"> : never;
export const unstamped = (input: Unstamped<SwitchInput>): SwitchInput =>
  ({ time: 0, seed: 0, ...input }) as SwitchInput;

export type SocketUpgrade = (
  socket: Socket,
  options: { outbound: boolean; dialledId?: string; handshakeTimeoutMs: number },
) => Promise<PeerConnection>;

/** Every socket and connection the switch has not finished with, by connection id. */
export class ConnectionTable {
  readonly sockets = new Map<string, Socket>();
  readonly upgraded = new Map<string, PeerConnection>();
  readonly admitted = new Map<string, PeerConnection>();
  /** connections we closed on purpose (no redial) */
  readonly graceful = new Set<string>();
  private inboundSeq = 1;

  nextInboundId(): string {
    return `a${this.inboundSeq++}`;
  }

  closeAll(reason: string): void {
    for (const s of this.sockets.values()) s.destroy();
    for (const c of this.upgraded.values()) c.close(reason);
    for (const c of this.admitted.values()) c.close(reason);
  }
}

export interface SwitchEffectDeps {
  table: ConnectionTable;
  hub: PeerHub;
  upgrade: SocketUpgrade;
  log: Logger;
  /** a peer became a peer / stopped being one (PEX, reactors, net_info listen here) */
  admitted$: Subject<{
    peer: Extract<SwitchEffect, { type: "AdmitPeer" }>["peer"];
    connection: PeerConnection;
  }>;
}

function describe(error: unknown): string {
  const e = error as { code?: string; message?: string };
  return e.code ? `${e.code}: ${e.message}` : String(e.message ?? error);
}

function listenAddressOf(connection: PeerConnection): NetAddress | undefined {
  try {
    const spec = parseAddressSpec(
      `${connection.remoteId}@${connection.remoteNodeInfo.listenAddr.replace(/^[a-z]+:\/\//, "")}`,
    );
    if (spec.needsLookup) return undefined;
    return { id: spec.id, ip: spec.host, port: spec.port };
  } catch {
    return undefined;
  }
}

export function switchEffectsHandler(deps: SwitchEffectDeps) {
  const { table, hub, log } = deps;

  const upgraded = (connId: string, connection: PeerConnection): SwitchInput => {
    table.upgraded.set(connId, connection);
    return unstamped({
      type: "ConnectionUpgraded",
      connId,
      id: connection.remoteId,
      ip: connection.remoteAddress.host,
      port: connection.remoteAddress.port,
      listenAddress: listenAddressOf(connection),
    });
  };
  const failed = (connId: string, reason: string, self = false): SwitchInput =>
    unstamped({ type: "ConnectionFailed", connId, reason, ...(self ? { self: true } : {}) });

  async function dial(e: Extract<SwitchEffect, { type: "Dial" }>): Promise<SwitchInput> {
    const socket = connect({ host: e.address.ip, port: e.address.port, noDelay: true });
    table.sockets.set(e.connId, socket);
    try {
      await new Promise<void>((resolve, reject) => {
        const timer = setTimeout(
          () => reject(new Error(`dial timed out after ${e.dialTimeoutMs} ms`)),
          e.dialTimeoutMs,
        );
        socket.once("connect", () => {
          clearTimeout(timer);
          resolve();
        });
        socket.once("error", (err) => {
          clearTimeout(timer);
          reject(err);
        });
        socket.once("close", () => {
          clearTimeout(timer);
          reject(new Error("closed while dialling"));
        });
      });
      const connection = await deps.upgrade(socket, {
        outbound: true,
        dialledId: e.address.id,
        handshakeTimeoutMs: e.handshakeTimeoutMs,
      });
      table.sockets.delete(e.connId);
      return upgraded(e.connId, connection);
    } catch (error) {
      socket.destroy();
      table.sockets.delete(e.connId);
      const code = (error as { code?: string }).code;
      return failed(e.connId, `dial ${formatNetAddress(e.address)}: ${describe(error)}`, code === "P2P_SELF");
    }
  }

  async function upgradeInbound(e: Extract<SwitchEffect, { type: "UpgradeInbound" }>): Promise<SwitchInput> {
    const socket = table.sockets.get(e.connId);
    if (!socket) return failed(e.connId, "socket already closed");
    try {
      const connection = await deps.upgrade(socket, {
        outbound: false,
        handshakeTimeoutMs: e.handshakeTimeoutMs,
      });
      table.sockets.delete(e.connId);
      return upgraded(e.connId, connection);
    } catch (error) {
      socket.destroy();
      table.sockets.delete(e.connId);
      const where = `${socket.remoteAddress}:${socket.remotePort}`;
      return failed(e.connId, `inbound ${where}: ${describe(error)}`);
    }
  }

  return (effect$: Observable<SwitchEffect>): Observable<SwitchInput> => {
    const closed$ = new Subject<SwitchInput>();
    const work$ = effect$.pipe(
      mergeMap((e): Observable<SwitchInput> => {
        switch (e.type) {
          case "Dial":
            log.debug("dialling", { address: formatNetAddress(e.address), persistent: e.persistent });
            return from(dial(e));
          case "UpgradeInbound":
            return from(upgradeInbound(e));
          case "CloseConnection": {
            const connection = table.upgraded.get(e.connId);
            const socket = table.sockets.get(e.connId);
            table.upgraded.delete(e.connId);
            table.sockets.delete(e.connId);
            connection?.close(e.reason);
            socket?.destroy();
            const who = connection
              ? connection.remoteId
              : socket
                ? `${socket.remoteAddress}:${socket.remotePort}`
                : e.connId;
            log.info("rejected connection", { peer: who, reason: e.reason });
            return EMPTY;
          }
          case "AdmitPeer": {
            const connection = table.upgraded.get(e.peer.connId);
            if (!connection) return EMPTY;
            table.upgraded.delete(e.peer.connId);
            table.admitted.set(e.peer.connId, connection);
            hub.add(e.peer.id, connection);
            connection.onClose((reason) => {
              table.admitted.delete(e.peer.connId);
              hub.remove(e.peer.id, connection);
              const graceful = table.graceful.delete(e.peer.connId);
              log.info("Stopping peer", {
                peer: e.peer.id,
                address: `${e.peer.ip}:${e.peer.port}`,
                reason: `${reason.code}: ${reason.message}`,
              });
              closed$.next(
                unstamped({
                  type: "PeerDisconnected",
                  id: e.peer.id,
                  connId: e.peer.connId,
                  reason: `${reason.code}: ${reason.message}`,
                  error: !graceful,
                }),
              );
            });
            log.info("Added peer", {
              peer: e.peer.id,
              address: `${e.peer.ip}:${e.peer.port}`,
              direction: e.peer.outbound ? "outbound" : "inbound",
              persistent: e.peer.persistent,
              moniker: connection.remoteNodeInfo.moniker,
            });
            deps.admitted$.next({ peer: e.peer, connection });
            return EMPTY;
          }
          case "DisconnectPeer": {
            const connection = table.admitted.get(e.connId);
            if (!connection) return EMPTY;
            if (e.error) {
              connection.close(e.reason);
              return EMPTY;
            }
            // a graceful stop (a seed hanging up after its answer): close() writes what is queued first
            table.graceful.add(e.connId);
            connection.close(e.reason);
            return EMPTY;
          }
          case "RedialScheduled":
            log.info("dial failed, will redial", {
              address: formatNetAddress(e.address),
              failures: e.failures,
              retry_in: `${(e.delayMs / 1000).toFixed(1)}s`,
            });
            return EMPTY;
          case "RedialAbandoned":
            log.error("giving up on a persistent peer", {
              address: formatNetAddress(e.address),
              failures: e.failures,
            });
            return EMPTY;
        }
      }),
    );
    return merge(work$, closed$);
  };
}
