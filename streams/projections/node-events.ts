// The node's events, a projection of the consensus loop's folds, so a replay of the log re-emits
// exactly what the live node published, in the same order: for each fold, the block events of a
// BlockExecuted input first (NewBlock, NewBlockHeader, Tx…, ValidatorSetUpdates, from the block
// and the app's answers to it), then the fold's PublishEvent effects (NewRound, NewRoundStep,
// Vote, Polka, Lock, CompleteProposal, TimeoutPropose…). The app's answers come from the
// execution that just stored them in the live node, and from the state store in a replay.
// Restart folds publish nothing (their events were published before the restart).
import { blockEvents } from "../../src/abci/execute-block.js";
import type { ConsensusEffect } from "../../src/consensus/effect.js";
import type { ConsensusInput } from "../../src/consensus/input.js";
import { addressOf } from "../../src/crypto/hash.js";
import type { RpcCompat } from "../../src/rpc/options.js";
import type { ABCIResponses } from "../../src/wire/generated/tendermint/state/types.js";
import type { Block } from "../../src/wire/generated/tendermint/types/block.js";
import type { Validator } from "../../src/wire/generated/tendermint/types/validator.js";
import type { NodeEvent } from "../node-handle.js";
import type { EventBus } from "./event-bus.js";
import { encoders } from "./rpc-encoders.js";

/** A committed block and the app's answers to it (BeginBlock, DeliverTxs, EndBlock). */
export interface ExecutedBlockResults {
  readonly block: Block;
  readonly responses: ABCIResponses;
  /** EndBlock's validator updates as validators (addresses derived from their keys). */
  readonly validatorUpdates: Validator[];
}

/** A block's results as the events need them (the live execution's and a replay's, alike). */
export function executedBlockResults(block: Block, responses: ABCIResponses): ExecutedBlockResults {
  const validatorUpdates = (responses.endBlock?.validatorUpdates ?? []).map((u) => {
    const key = u.pubKey.sum;
    const raw =
      key?.$case === "ed25519" ? key.ed25519 : key?.$case === "secp256k1" ? key.secp256k1 : new Uint8Array(0);
    return { address: addressOf(raw), pubKey: u.pubKey, votingPower: u.power, proposerPriority: 0n };
  });
  return { block, responses, validatorUpdates };
}

/** Where the results of the block a BlockExecuted input reports are found. */
export interface BlockResultsSource {
  take(height: bigint): ExecutedBlockResults | undefined;
}

/**
 * The live node's hand-off from block execution to this projection: execution puts the results
 * (already saved in the stores) before BlockExecuted is fed back; the fold takes them.
 */
export class ExecutedBlocks implements BlockResultsSource {
  private readonly byHeight = new Map<bigint, ExecutedBlockResults>();

  put(height: bigint, results: ExecutedBlockResults): void {
    this.byHeight.set(height, results);
  }

  take(height: bigint): ExecutedBlockResults | undefined {
    const results = this.byHeight.get(height);
    // Older heights can no longer be folded: keep the map to the heights still to come.
    for (const h of this.byHeight.keys()) if (h <= height) this.byHeight.delete(h);
    return results;
  }
}

/** Publishes the events of one (not re-folded) fold. */
export function publishFoldEvents(
  bus: EventBus,
  step: { readonly input: ConsensusInput; readonly effects: readonly ConsensusEffect[] },
  results: BlockResultsSource,
): void {
  if (step.input.type === "BlockExecuted") {
    const executed = results.take(step.input.height);
    if (executed !== undefined) {
      const { block, responses } = executed;
      bus.publishBlock(
        block,
        blockEvents(block, responses),
        responses.beginBlock ?? { events: [] },
        responses.endBlock ?? { validatorUpdates: [], consensusParamUpdates: undefined, events: [] },
        executed.validatorUpdates,
      );
    }
  }
  for (const effect of step.effects)
    if (effect.type === "PublishEvent") bus.publishConsensus(effect.name, effect.data);
}

/**
 * One event as a JSON line (`rxbft replay --events`, and tests comparing a live run with its
 * replay): the event's name, its data as the RPC's WebSocket subscriptions encode it in `form`,
 * and its composite keys.
 */
export function eventJsonLine(event: NodeEvent, form: RpcCompat): string {
  return `{"type":${JSON.stringify(event.type)},"data":${encoders[form].encodeEventData(event)},"events":${JSON.stringify(event.events)}}`;
}
