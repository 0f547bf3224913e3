// The signer's state file written behind the signatures, once the consensus log holds each state
// durably (sign-state-store.ts). Its replacement is two journal commits on the disk the log shares
// (the staged file's sync, then the rename's directory fsync); written after every signature it
// landed beside the next one's log sync (a prevote follows its proposal by ~0.1 ms) and took most
// of the gain back. So it is written at most once per period, the latest state only (an older one
// would be overwritten at once): the file trails the log by up to a period, which start-up makes
// good (state-from-log.ts), and is current once the node stops (`flush` on close).
import type { StateFileWriter } from "./state-file-writer.js";

/** The longest the state file trails the log while signatures come (ms). */
export const STATE_FILE_EVERY_MS = 1000;

export class TrailingStateFile {
  private writing: Promise<void> | undefined;
  private timer: ReturnType<typeof setTimeout> | undefined;
  private next: string | undefined;
  private lastStarted = Number.NEGATIVE_INFINITY;
  /**
   * A failed write, kept: the store refuses the next save with it (the disk is failing) and
   * nothing more is written here; the log still holds every state released.
   */
  failure: Error | undefined;

  constructor(
    private readonly path: string,
    private readonly writer: StateFileWriter,
    private readonly everyMs = STATE_FILE_EVERY_MS,
  ) {}

  /** The file is to hold `text` (the latest state): now if a period has passed, else at its end. */
  write(text: string): void {
    this.next = text;
    this.schedule();
  }

  /** Writes what is waiting now and resolves once no write is out (a node stopping). */
  async flush(): Promise<void> {
    if (this.timer !== undefined) clearTimeout(this.timer);
    this.timer = undefined;
    for (;;) {
      if (this.writing !== undefined) await this.writing;
      else if (this.next !== undefined && this.failure === undefined) this.start();
      else return;
    }
  }

  private schedule(): void {
    if (this.writing !== undefined || this.timer !== undefined) return;
    if (this.next === undefined || this.failure !== undefined) return;
    const wait = this.lastStarted + this.everyMs - performance.now();
    if (wait <= 0) {
      this.start();
      return;
    }
    this.timer = setTimeout(() => {
      this.timer = undefined;
      this.schedule();
    }, wait);
    this.timer.unref();
  }

  private start(): void {
    const text = this.next!;
    this.next = undefined;
    this.lastStarted = performance.now();
    this.writing = this.writer.write(this.path, text, 0o600).then(
      () => {
        this.writing = undefined;
        this.schedule();
      },
      (error: unknown) => {
        this.failure = error as Error;
        this.writing = undefined;
      },
    );
  }
}
