// PublishEvent → the event bus (NewRoundStep, Vote, Polka, …); Halt and PeerMisbehaved → the
// runner (the node halts and logs; the simulation records). Nothing comes back as an input.
import { ignoreElements, type Observable, tap } from "rxjs";
import type { ConsensusEffect, PublishEvent } from "../../src/consensus/effect.js";
import type { ConsensusInput } from "../../src/consensus/input.js";

export interface ConsensusEventsDeps {
  /**
   * Where PublishEvent goes in the simulation. The node publishes its events from the folds
   * instead (projections/node-events.ts), so a replay re-emits the same stream.
   */
  publish?(name: PublishEvent["name"], data: PublishEvent["data"]): void;
  halt(reason: string): void;
  peerMisbehaved(peer: string, reason: string): void;
}

export function consensusEventsHandler(deps: ConsensusEventsDeps) {
  return function consensusEvents(effect$: Observable<ConsensusEffect>): Observable<ConsensusInput> {
    return effect$.pipe(
      // Every effect passes here: a tap, not a mergeMap returning EMPTY, so no inner subscription per effect.
      tap((e) => {
        if (e.type === "PublishEvent") deps.publish?.(e.name, e.data);
        else if (e.type === "Halt") deps.halt(e.reason);
        else if (e.type === "PeerMisbehaved") deps.peerMisbehaved(e.peer, e.reason);
      }),
      ignoreElements(),
    );
  };
}
