// The node's remote signer: listens on priv_validator_laddr, lets the listener machine
// (listener-machine.ts) decide everything, and does what it says: accept, write frames, close,
// keep one timer. It signs through the same port as the file signer (signVote, signProposal);
// an answer is checked (check-answer.ts) before it goes back to consensus.

import { existsSync, lstatSync, rmSync } from "node:fs";
import { chmod } from "node:fs/promises";
import { connect, createServer, type Server, type Socket } from "node:net";
import { performance } from "node:perf_hooks";
import { addressOf } from "../../crypto/hash.js";
import type { Logger } from "../../logger/index.js";
import type { Message } from "../../wire/generated/tendermint/privval/types.js";
import type { Proposal, Vote } from "../../wire/generated/tendermint/types/types.js";
import { parseSignerAddress, type SignerAddress } from "./address.js";
import { type ByteLink, socketLink } from "./byte-link.js";
import { problemWithSignedProposal, problemWithSignedVote } from "./check-answer.js";
import { codeOfDescription, RemoteSignerError } from "./errors.js";
import { encodeFrame, readFramedLink } from "./framing.js";
import {
  initialListenerState,
  type ListenerConfig,
  type ListenerEffect,
  type ListenerInput,
  type ListenerState,
  listenerReducer,
  listenerWakeAt,
  V034_LISTENER_TIMING,
} from "./listener-machine.js";
import { signProposalRequest, signVoteRequest } from "./messages.js";
import { freshConnectionKey, secretLink } from "./secret-link.js";

/** Turns an accepted tcp socket into a link (the secret connection); unix links are plain. */
export type LinkUpgrade = (socket: Socket) => Promise<ByteLink>;

export interface SignerClientOptions {
  /** priv_validator_laddr. */
  laddr: string;
  chainId: string;
  logger: Logger;
  timing?: Partial<Omit<ListenerConfig, "address" | "chainId">>;
  /** How a tcp connection is secured (default: the secret connection with a key made now). */
  upgradeTcp?: LinkUpgrade;
  /** Monotonic milliseconds (tests may stand in). */
  now?: () => number;
}

interface Pending {
  resolve(message: Message): void;
  reject(error: Error): void;
}

export class RemoteSignerClient {
  private state: ListenerState;
  private readonly links = new Map<number, ByteLink>();
  private readonly pending = new Map<number, Pending>();
  private nextConnId = 1;
  private nextRequestId = 1;
  private timer: NodeJS.Timeout | undefined;
  private keyWaiters: { resolve(key: Uint8Array): void; reject(e: Error): void }[] = [];
  private closed = false;
  private readonly now: () => number;
  private readonly upgradeTcp: LinkUpgrade;

  private constructor(
    private readonly laddr: SignerAddress,
    private readonly server: Server,
    private readonly options: SignerClientOptions,
  ) {
    this.now = options.now ?? (() => performance.now());
    const key = laddr.protocol === "tcp" && !options.upgradeTcp ? freshConnectionKey() : undefined;
    this.upgradeTcp =
      options.upgradeTcp ?? ((socket) => secretLink(socket, key!, this.state.config.acceptTimeoutMs));
    this.state = initialListenerState(
      { address: laddr.text, chainId: options.chainId, ...V034_LISTENER_TIMING, ...options.timing },
      this.now(),
    );
    this.schedule();
  }

  /** Listens on `options.laddr` (a stale unix socket file of a crashed node is replaced). */
  static async listen(options: SignerClientOptions): Promise<RemoteSignerClient> {
    const address = parseSignerAddress(options.laddr, "priv_validator_laddr");
    const server = createServer({ pauseOnConnect: false });
    if (address.protocol === "unix") await removeStaleSocket(address.path);
    await new Promise<void>((resolve, reject) => {
      server.once("error", (error: NodeJS.ErrnoException) =>
        reject(
          new RemoteSignerError(
            "PRIVVAL_REMOTE_BAD_ADDRESS",
            `priv_validator_laddr ${address.text}: cannot listen: ${error.code ?? error.message}`,
            { cause: error },
          ),
        ),
      );
      if (address.protocol === "unix") server.listen(address.path, () => resolve());
      else server.listen(address.port, address.host, () => resolve());
    });
    // Only this user may dial the socket (the signer runs as the node's user, or is given access).
    if (address.protocol === "unix") await chmod(address.path, 0o600);
    const client = new RemoteSignerClient(address, server, options);
    server.on("connection", (socket) => client.accept(socket));
    options.logger.info("listening for a remote signer", { address: address.text });
    return client;
  }

  /** The address actually listened on (a tcp port 0 becomes the chosen port). */
  get listenAddress(): string {
    const a = this.server.address();
    return typeof a === "object" && a ? `tcp://${a.address}:${a.port}` : this.laddr.text;
  }

  get publicKey(): Uint8Array {
    const key = this.state.publicKey;
    if (!key) throw new Error("the remote signer's key is not known yet (waitForPublicKey first)");
    return key;
  }

  get address(): Uint8Array {
    return addressOf(this.publicKey);
  }

  /**
   * Resolves with the signer's key once a signer has dialled in and told it; rejects when the
   * first signer refuses (a wrong chain ID), or when `signal` aborts.
   */
  waitForPublicKey(signal?: AbortSignal): Promise<Uint8Array> {
    if (this.state.publicKey) return Promise.resolve(this.state.publicKey);
    return new Promise((resolve, reject) => {
      const waiter = { resolve, reject };
      this.keyWaiters.push(waiter);
      signal?.addEventListener(
        "abort",
        () => {
          this.keyWaiters = this.keyWaiters.filter((w) => w !== waiter);
          reject(
            new RemoteSignerError("PRIVVAL_REMOTE_STOPPED", "stopped while waiting for the remote signer"),
          );
        },
        { once: true },
      );
    });
  }

  async signVote(chainId: string, vote: Vote): Promise<Vote> {
    const what = `${vote.type === 1 ? "prevote" : "precommit"} ${vote.height}/${vote.round}`;
    const answer = await this.request(what, signVoteRequest(chainId, vote));
    const response = answer.sum?.$case === "signedVoteResponse" ? answer.sum.signedVoteResponse : undefined;
    if (!response) throw this.badAnswer(what, "no signed vote");
    if (response.error) throw this.refused(what, response.error);
    const problem = problemWithSignedVote(chainId, vote, response.vote, this.publicKey);
    if (problem) throw this.badAnswer(what, problem);
    return response.vote;
  }

  async signProposal(chainId: string, proposal: Proposal): Promise<Proposal> {
    const what = `proposal ${proposal.height}/${proposal.round}`;
    const answer = await this.request(what, signProposalRequest(chainId, proposal));
    const response =
      answer.sum?.$case === "signedProposalResponse" ? answer.sum.signedProposalResponse : undefined;
    if (!response) throw this.badAnswer(what, "no signed proposal");
    if (response.error) throw this.refused(what, response.error);
    const problem = problemWithSignedProposal(chainId, proposal, response.proposal, this.publicKey);
    if (problem) throw this.badAnswer(what, problem);
    return response.proposal;
  }

  /** Stops listening, closes the connection and rejects whatever is pending. */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    this.apply({ type: "Stop", now: this.now() });
    for (const w of this.keyWaiters)
      w.reject(
        new RemoteSignerError("PRIVVAL_REMOTE_STOPPED", "stopped while waiting for the remote signer"),
      );
    this.keyWaiters = [];
    if (this.timer) clearTimeout(this.timer);
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  private request(what: string, message: Message): Promise<Message> {
    return new Promise((resolve, reject) => {
      const id = this.nextRequestId++;
      this.pending.set(id, { resolve, reject });
      this.apply({ type: "Requested", now: this.now(), id, what, message });
    });
  }

  private refused(what: string, error: { code: number; description: string }): RemoteSignerError {
    return new RemoteSignerError(
      codeOfDescription(error.description) ?? "PRIVVAL_REMOTE_REFUSED",
      `the remote signer at ${this.laddr.text} refused to sign the ${what}: ${error.description} (error #${error.code})`,
    );
  }

  private badAnswer(what: string, problem: string): RemoteSignerError {
    return new RemoteSignerError(
      "PRIVVAL_REMOTE_BAD_RESPONSE",
      `the remote signer at ${this.laddr.text} answered the ${what} wrongly: ${problem}`,
    );
  }

  private accept(socket: Socket): void {
    const connId = this.nextConnId++;
    const remote =
      this.laddr.protocol === "unix" ? "unix socket" : `${socket.remoteAddress}:${socket.remotePort}`;
    if (this.closed) {
      socket.destroy();
      return;
    }
    if (this.laddr.protocol === "unix") {
      this.attach(connId, socketLink(socket, remote));
      return;
    }
    // The secret connection's handshake runs under the accept timeout, as v0.34's TCPListener.
    socket.setTimeout(this.state.config.acceptTimeoutMs, () =>
      socket.destroy(new Error("handshake timed out")),
    );
    this.upgradeTcp(socket).then(
      (link) => {
        socket.setTimeout(0);
        if (this.closed) link.close();
        else this.attach(connId, link);
      },
      (error: Error) => {
        socket.destroy();
        this.options.logger.warn("remote signer connection failed its secret handshake", {
          remote,
          err: error.message,
        });
      },
    );
  }

  private attach(connId: number, link: ByteLink): void {
    this.links.set(connId, link);
    // The machine knows the connection before any of its bytes (a link may hand over buffered ones at once).
    this.apply({ type: "Accepted", now: this.now(), connId, remote: link.remote });
    readFramedLink(link, "the remote signer", {
      received: (message) => this.apply({ type: "Received", now: this.now(), connId, message }),
      badFrame: (reason) => this.apply({ type: "BadFrame", now: this.now(), connId, reason }),
      closed: (reason) => {
        this.links.delete(connId);
        this.apply({ type: "Closed", now: this.now(), connId, reason });
      },
    });
  }

  private apply(input: ListenerInput): void {
    const out = listenerReducer(this.state, input);
    this.state = out.state;
    for (const effect of out.effects) this.run(effect);
    this.schedule();
  }

  private run(effect: ListenerEffect): void {
    switch (effect.type) {
      case "Write": {
        const link = this.links.get(effect.connId);
        link?.write(encodeFrame(effect.message), (error) => {
          if (error) link.close();
          else this.apply({ type: "Written", now: this.now(), connId: effect.connId });
        });
        break;
      }
      case "Close": {
        const link = this.links.get(effect.connId);
        this.links.delete(effect.connId);
        link?.close();
        break;
      }
      case "Resolve": {
        const p = this.pending.get(effect.id);
        this.pending.delete(effect.id);
        p?.resolve(effect.message);
        break;
      }
      case "Reject": {
        const p = this.pending.get(effect.id);
        this.pending.delete(effect.id);
        p?.reject(new RemoteSignerError(effect.code, effect.reason));
        break;
      }
      case "KeyLearnt": {
        for (const w of this.keyWaiters) w.resolve(effect.publicKey);
        this.keyWaiters = [];
        break;
      }
      case "KeyRefused": {
        for (const w of this.keyWaiters) w.reject(new RemoteSignerError(effect.code, effect.reason));
        this.keyWaiters = [];
        break;
      }
      case "Log":
        this.options.logger[effect.level](effect.msg, effect.fields);
        break;
    }
  }

  /** One timer, at the machine's next deadline. */
  private schedule(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    const at = listenerWakeAt(this.state);
    if (at === undefined || this.closed) return;
    this.timer = setTimeout(
      () => this.apply({ type: "Tick", now: this.now() }),
      Math.max(0, at - this.now()) + 1,
    );
    this.timer.unref();
  }
}

/**
 * A socket file left by a node that crashed is removed; one a live process listens on is not
 * (two nodes on one signer socket would be a misconfiguration to report, not to hide).
 */
async function removeStaleSocket(path: string): Promise<void> {
  if (!existsSync(path)) return;
  if (!lstatSync(path).isSocket()) {
    throw new RemoteSignerError(
      "PRIVVAL_REMOTE_BAD_ADDRESS",
      `priv_validator_laddr unix://${path}: the path exists and is not a socket`,
    );
  }
  const live = await new Promise<boolean>((resolve) => {
    const probe = connect(path);
    probe.once("connect", () => {
      probe.destroy();
      resolve(true);
    });
    probe.once("error", () => resolve(false));
  });
  if (live) {
    throw new RemoteSignerError(
      "PRIVVAL_REMOTE_BAD_ADDRESS",
      `priv_validator_laddr unix://${path}: another process is listening on this socket`,
    );
  }
  rmSync(path, { force: true });
}
