// The state saves a node's commit left running behind it (block-commit.ts, `stateSaves`): height
// H's state is written and synced while H+1 is proposed and voted on, and H+1's commit waits here
// before it saves its block, so the block store is never more than one height ahead of the state
// (the one case reconcile and the handshake repair: docs/storage.md, "Crash consistency").
// Shared by every path that commits blocks on the node (consensus and block sync), so a switch
// between them cannot overtake a save either.

export class StateSaveTail {
  #last: Promise<void> = Promise.resolve();
  #pending = 0;

  /** Saves registered and not yet ended. */
  get pending(): number {
    return this.#pending;
  }

  /**
   * Registers a height's save, begun now (its promise is created by the caller at once, even if
   * its write waits for something first), so a settled() asked after this call includes it.
   */
  add(save: Promise<void>): void {
    this.#pending++;
    const counted = save.finally(() => {
      this.#pending--;
    });
    // Every save so far: a failed one stays failed for every later caller (the node halts on it).
    this.#last = Promise.all([this.#last, counted]).then(() => undefined);
    this.#last.catch(() => undefined);
  }

  /** Resolves once every save registered so far is durable; rejects if one of them failed. */
  settled(): Promise<void> {
    return this.#last;
  }
}
