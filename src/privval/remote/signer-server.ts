// The signer process's end (`rxbft signer`): dials the node, lets the dialer machine
// (dialer-machine.ts) decide when to dial, read, answer and drop, and answers each request with
// the file signer behind it (request-handler.ts), so the double-sign rules and the state file are
// exactly the file signer's.

import { connect, type Socket } from "node:net";
import { performance } from "node:perf_hooks";
import type { Logger } from "../../logger/index.js";
import type { Message } from "../../wire/generated/tendermint/privval/types.js";
import { parseSignerAddress, type SignerAddress } from "./address.js";
import { type ByteLink, socketLink } from "./byte-link.js";
import {
  type DialerConfig,
  type DialerEffect,
  type DialerInput,
  type DialerState,
  dialerReducer,
  dialerWakeAt,
  initialDialerState,
  V034_DIALER_TIMING,
} from "./dialer-machine.js";
import { encodeFrame, readFramedLink } from "./framing.js";
import { answerRequest, messageName, type SigningKey } from "./request-handler.js";
import { freshConnectionKey, secretLink } from "./secret-link.js";

/** Secures a dialled tcp socket (the secret connection). */
export type DialUpgrade = (socket: Socket) => Promise<ByteLink>;

export interface SignerServerOptions {
  /** The node's priv_validator_laddr. */
  node: string;
  chainId: string;
  signer: SigningKey;
  logger: Logger;
  timing?: Partial<Omit<DialerConfig, "address">>;
  upgradeTcp?: DialUpgrade;
  now?: () => number;
}

export class RemoteSignerServer {
  private state: DialerState;
  private readonly address: SignerAddress;
  private readonly links = new Map<number, ByteLink>();
  private nextConnId = 1;
  private timer: NodeJS.Timeout | undefined;
  private readonly now: () => number;
  private readonly upgradeTcp: DialUpgrade;
  private handling: Promise<unknown> = Promise.resolve();
  /** Requests answered, refusals included (for tests and the stop message). */
  answered = 0;

  constructor(private readonly options: SignerServerOptions) {
    this.address = parseSignerAddress(options.node, "--node");
    const key = this.address.protocol === "tcp" && !options.upgradeTcp ? freshConnectionKey() : undefined;
    this.upgradeTcp =
      options.upgradeTcp ?? ((socket) => secretLink(socket, key!, this.state.config.readWriteTimeoutMs));
    this.now = options.now ?? (() => performance.now());
    this.state = initialDialerState(
      { address: this.address.text, ...V034_DIALER_TIMING, ...options.timing },
      this.now(),
    );
  }

  start(): void {
    this.apply({ type: "Start", now: this.now() });
  }

  /** Stops dialling and closes the connection once the request being answered is done. */
  async stop(): Promise<void> {
    this.apply({ type: "Stop", now: this.now() });
    if (this.timer) clearTimeout(this.timer);
    await this.handling.catch(() => {});
    for (const link of this.links.values()) link.close();
    this.links.clear();
  }

  private apply(input: DialerInput): void {
    const out = dialerReducer(this.state, input);
    this.state = out.state;
    for (const effect of out.effects) this.run(effect);
    this.schedule();
  }

  private run(effect: DialerEffect): void {
    switch (effect.type) {
      case "Dial":
        this.dial();
        break;
      case "Write": {
        const link = this.links.get(effect.connId);
        link?.write(encodeFrame(effect.message), (error) => {
          if (error) link.close();
          else this.apply({ type: "Written", now: this.now(), connId: effect.connId });
        });
        break;
      }
      case "Handle":
        this.handle(effect.connId, effect.message);
        break;
      case "Close": {
        const link = this.links.get(effect.connId);
        this.links.delete(effect.connId);
        link?.close();
        break;
      }
      case "Log":
        this.options.logger[effect.level](effect.msg, effect.fields);
        break;
    }
  }

  private handle(connId: number, request: Message): void {
    const log = this.options.logger;
    const run = answerRequest(this.options.signer, this.options.chainId, request).then((handled) => {
      if (handled === undefined) {
        this.apply({
          type: "BadFrame",
          now: this.now(),
          connId,
          reason: `the node sent ${messageName(request)}, which is not a request`,
        });
        return;
      }
      this.answered++;
      if (handled.refusal) log.error("refused to sign", { what: handled.what, reason: handled.refusal });
      else if (handled.what !== "ping") log.debug("answered", { what: handled.what });
      this.apply({ type: "Handled", now: this.now(), connId, response: handled.response });
    });
    // answerRequest turns every refusal into an answer; anything else is a bug of ours: drop the
    // connection (the node asks again) rather than leave the request hanging.
    this.handling = run.catch((error: Error) => {
      log.error("could not answer a request", { err: error.message });
      this.apply({ type: "BadFrame", now: this.now(), connId, reason: `internal error: ${error.message}` });
    });
  }

  private dial(): void {
    const connId = this.nextConnId++;
    const a = this.address;
    const socket = a.protocol === "unix" ? connect(a.path) : connect(a.port, a.host);
    const fail = (error: Error & { code?: string }) => {
      socket.destroy();
      this.apply({ type: "DialFailed", now: this.now(), reason: error.code ?? error.message });
    };
    socket.once("error", fail);
    socket.setTimeout(this.state.config.readWriteTimeoutMs, () => fail(new Error("dial timed out")));
    socket.once("connect", () => {
      socket.setTimeout(0);
      socket.off("error", fail);
      const ready: Promise<ByteLink> =
        a.protocol === "unix"
          ? Promise.resolve(socketLink(socket, a.text))
          : (() => {
              // Errors during the handshake are the upgrade's to report.
              socket.on("error", () => {});
              return this.upgradeTcp(socket);
            })();
      ready.then(
        (link) => this.attach(connId, link),
        (error: Error) => fail(error),
      );
    });
  }

  private attach(connId: number, link: ByteLink): void {
    if (this.state.phase === "stopped") {
      link.close();
      return;
    }
    this.links.set(connId, link);
    // The machine knows the connection before any of its bytes (a link may hand over buffered ones at once).
    this.apply({ type: "Dialled", now: this.now(), connId });
    readFramedLink(link, "the node", {
      received: (message) => this.apply({ type: "Received", now: this.now(), connId, message }),
      badFrame: (reason) => this.apply({ type: "BadFrame", now: this.now(), connId, reason }),
      closed: (reason) => {
        this.links.delete(connId);
        this.apply({ type: "Closed", now: this.now(), connId, reason });
      },
    });
  }

  private schedule(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    const at = dialerWakeAt(this.state);
    if (at === undefined) return;
    this.timer = setTimeout(
      () => this.apply({ type: "Tick", now: this.now() }),
      Math.max(0, at - this.now()) + 1,
    );
  }
}
