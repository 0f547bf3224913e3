// PublishEvent → the event bus (NewRoundStep, Vote, Polka, …); Halt and PeerMisbehaved → the node.
// Nothing comes back as an input.
import { EMPTY, mergeMap, type Observable } from "rxjs";
import type { ConsensusEffect } from "../../src/consensus/effect.js";
import type { ConsensusInput } from "../../src/consensus/input.js";
import type { Logger } from "../../src/logger/index.js";
import type { EventBus } from "../projections/event-bus.js";

export interface ConsensusEventsDeps {
  events: EventBus;
  halt(reason: string): void;
  logger: Logger;
}

export function consensusEventsHandler(deps: ConsensusEventsDeps) {
  return (effect$: Observable<ConsensusEffect>): Observable<ConsensusInput> =>
    effect$.pipe(
      mergeMap((e) => {
        if (e.type === "PublishEvent") deps.events.publishConsensus(e.name, e.data);
        else if (e.type === "Halt") deps.halt(e.reason);
        else if (e.type === "PeerMisbehaved")
          deps.logger.info("peer misbehaved", { peer: e.peer, reason: e.reason });
        return EMPTY;
      }),
    );
}
