// Halt and PeerMisbehaved → the runner (the node halts and logs; the simulation records). Nothing
// comes back as an input. PublishEvent (NewRoundStep, Vote, Polka, …) comes to no handler: the node
// publishes its events from the loop's folds (projections/node-events.ts), so a replay re-emits the
// same stream, and the simulation observes none.
import { ignoreElements, type Observable, tap } from "rxjs";
import type { ConsensusEffect } from "../../src/consensus/effect.js";
import type { ConsensusInput } from "../../src/consensus/input.js";

export interface ConsensusEventsDeps {
  halt(reason: string): void;
  peerMisbehaved(peer: string, reason: string): void;
}

/** The effect kinds this handler carries out (the factory routes these to it; the tap branches on them). */
export const CONSENSUS_EVENT_KINDS = ["Halt", "PeerMisbehaved"] as const;

export function consensusEventsHandler(deps: ConsensusEventsDeps) {
  return function consensusEvents(effect$: Observable<ConsensusEffect>): Observable<ConsensusInput> {
    return effect$.pipe(
      // A tap, not a mergeMap returning EMPTY, so no inner subscription per effect.
      tap((e) => {
        if (e.type === "Halt") deps.halt(e.reason);
        else if (e.type === "PeerMisbehaved") deps.peerMisbehaved(e.peer, e.reason);
      }),
      ignoreElements(),
    );
  };
}
