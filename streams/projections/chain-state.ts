// The chain state the node runs on, a projection of the consensus log: the handshake's state at
// start, then the state each folded BlockExecuted carries. Block validation, block execution, the
// RPC and the evidence pool read it here; nothing sets it from inside an effect handler but block
// sync's apply (advance). Each new state also feeds the recent-block cache and the listeners given
// to onState.
import type { Observable, Subscription } from "rxjs";
import type { ConsensusInput } from "../../src/consensus/input.js";
import type { State as ChainState } from "../../src/wire/generated/tendermint/state/types.js";
import type { RecentBlocks } from "./recent-blocks.js";

export class ChainStateProjection {
  private state: ChainState;
  private readonly listeners: ((state: ChainState) => void)[] = [];

  constructor(
    initial: ChainState,
    private readonly recent: RecentBlocks,
  ) {
    this.state = initial;
    recent.add(initial);
  }

  get current(): ChainState {
    return this.state;
  }

  /**
   * A block applied outside the consensus log: by block sync (which logs nothing, as v0.34 writes
   * no consensus WAL while syncing), or the last block of a consensus run stopped for block sync.
   * A state not newer than the current one changes nothing.
   */
  advance(state: ChainState): void {
    if (state.lastBlockHeight <= this.state.lastBlockHeight) return;
    this.take(state);
  }

  /** Calls `listener` with the current state now, then with each new one. */
  onState(listener: (state: ChainState) => void): void {
    this.listeners.push(listener);
    listener(this.state);
  }

  /** Follows the loop's folds (BlockExecuted inputs). */
  follow(transition$: Observable<{ input: ConsensusInput }>): Subscription {
    return transition$.subscribe(({ input }) => {
      if (input.type !== "BlockExecuted") return;
      this.take(input.chainState);
    });
  }

  private take(state: ChainState): void {
    this.state = state;
    this.recent.add(state);
    for (const listener of this.listeners) listener(state);
  }
}
