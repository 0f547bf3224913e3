// A node's lifecycle: what to close at the end (in reverse order of opening), the work under way
// that a stop waits for, and the one way out: shutdown, by a requested stop (exit code 0) or a halt
// (its exit code and reason). A halt stops consensus first (the running subscription: no further
// signatures), lets the step under way finish, then closes everything (the log flushed and synced
// by its close).
import type { Subscription } from "rxjs";
import type { Logger } from "../src/logger/index.js";
import { EXIT_HALTED } from "./node-errors.js";
import type { NodeExit } from "./node-handle.js";

export class NodeLifecycle {
  readonly stopped: Promise<NodeExit>;
  private resolveStopped!: (exit: NodeExit) => void;
  private readonly cleanups: (() => Promise<unknown> | unknown)[] = [];
  private readonly inFlight = new Set<Promise<unknown>>();
  private stopping: Promise<NodeExit> | undefined;
  private running: Subscription | undefined;

  constructor(private readonly log: Logger) {
    this.stopped = new Promise<NodeExit>((resolve) => {
      this.resolveStopped = resolve;
    });
  }

  /** Whether a stop or a halt has begun. */
  get isStopping(): boolean {
    return this.stopping !== undefined;
  }

  /** Closes `close` at the end, before everything registered earlier. */
  onCleanup(close: () => Promise<unknown> | unknown): void {
    this.cleanups.push(close);
  }

  /** The loops' subscription: unsubscribed first at a stop. */
  run(running: Subscription): void {
    this.running = running;
  }

  /** Registers work under way, so a stop waits for it before closing the stores. */
  readonly track = <T>(work: Promise<T>): Promise<T> => {
    this.inFlight.add(work);
    void work.finally(() => this.inFlight.delete(work)).catch(() => {});
    return work;
  };

  /** Halts: consensus stops at once, the node ends with `exitCode` and `reason`. */
  readonly halt = (reason: string, exitCode: number = EXIT_HALTED): void => {
    void this.shutdown({ exitCode, reason });
  };

  /**
   * Unwinds a start that failed or was called off (a signal), as a stop does but without its log
   * lines: by then consensus may be running and writing, so closing the stores under it (the
   * order a bare close would take) could free them mid-write. A stop or halt already under way is
   * awaited instead.
   */
  async unwindStart(): Promise<void> {
    await this.end({ exitCode: 0, reason: "the start was unwound" }, false);
  }

  shutdown(exit: NodeExit): Promise<NodeExit> {
    return this.end(exit, true);
  }

  private end(exit: NodeExit, logged: boolean): Promise<NodeExit> {
    if (this.stopping) return this.stopping;
    this.stopping = (async () => {
      this.running?.unsubscribe();
      if (logged && exit.exitCode !== 0)
        this.log.error("node halted", { reason: exit.reason, exitCode: exit.exitCode });
      else if (logged) this.log.info("stopping node");
      // The step under way finishes (a half-written height is repaired at start anyway), and so
      // does what it registers while it ends: a commit under way registers its state save behind
      // it only as it returns, after this wait began. Nothing new starts once the loops are
      // unsubscribed (block sync refuses new blocks while stopping), so the set drains.
      while (this.inFlight.size > 0) await Promise.allSettled([...this.inFlight]);
      await this.closeAll();
      if (logged) this.log.info("node stopped", { exitCode: exit.exitCode });
      this.resolveStopped(exit);
      return exit;
    })();
    return this.stopping;
  }

  /** Closes what was opened, latest first; errors are logged, never thrown. */
  private async closeAll(): Promise<void> {
    for (const close of this.cleanups.reverse()) {
      try {
        await close();
      } catch (error) {
        this.log.error("error while stopping", { err: (error as Error).message });
      }
    }
    this.cleanups.length = 0;
  }
}
