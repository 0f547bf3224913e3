// What one routine pass over one peer works with: our state, the clock, the catch-up store view,
// and where its messages go. The reducer builds one per pass; the routines only read it and send.
import type { Commit, Part, PartSetHeader } from "../../wire/generated/tendermint/types/types.js";
import type { ConsensusState } from "../state.js";
import type { ConsensusMessage } from "./message.js";
import type { GossipConfig } from "./state.js";

export interface StoredView {
  readonly header: PartSetHeader;
  readonly parts: readonly Part[];
  readonly commit: Commit;
}

export interface Pass {
  readonly our: ConsensusState;
  readonly nowMs: number;
  readonly config: GossipConfig;
  /** The committed block of `height` if loaded; otherwise undefined (and a load is asked for). */
  stored(height: bigint): StoredView | undefined;
  send(message: ConsensusMessage): void;
}

/** When the routine runs next: soon when it stopped at its budget, after the sleep when idle. */
export function nextDue(pass: Pass, sent: number, idleSleepMs: number): number {
  return pass.nowMs + (sent >= pass.config.maxSendsPerPass ? pass.config.busyRetryMs : idleSleepMs);
}
