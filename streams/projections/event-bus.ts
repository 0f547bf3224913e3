// The node's event bus: every event with Tendermint's name, its data in domain form and the
// composite-key map the query language matches (reference §1.5). One hot Subject; WebSocket
// subscriptions, the tx-commit waiter and tests read it.
import { Subject } from "rxjs";
import type { BlockEvents } from "../../src/abci/execute-block.js";
import type { ConsensusEventData, ConsensusEventName } from "../../src/consensus/effect.js";
import type {
  Event,
  ResponseBeginBlock,
  ResponseEndBlock,
} from "../../src/wire/generated/tendermint/abci/types.js";
import type { Block } from "../../src/wire/generated/tendermint/types/block.js";
import type { Validator } from "../../src/wire/generated/tendermint/types/validator.js";
import { rememberedTxHashes, rememberedTxKeys, txKey, txKeyOf } from "../../src/wire/hashes.js";
import type { NodeEvent } from "../node-handle.js";

const textDecoder = new TextDecoder();
const text = (b: Uint8Array | string) => (typeof b === "string" ? b : textDecoder.decode(b));

export function upperHex(bytes: Uint8Array): string {
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString("hex").toUpperCase();
}

/** Upper-case hex sha256 of a tx: its hash in the mempool, the tx.hash event key and the RPC. */
export function txHashHex(tx: Uint8Array): string {
  return txKey(tx);
}

/**
 * The hash hex of a block's `index`th tx: from the sha256 its data hash remembered when the block
 * was made or checked here (`rememberedTxHashes`), else hashed now (a block never checked here).
 */
export function blockTxHashHex(
  tx: Uint8Array,
  remembered: readonly Uint8Array[] | undefined,
  index: number,
  rememberedKeys?: readonly (string | undefined)[],
): string {
  // The mempool's own key for the tx, where the block's reaping remembered it (rememberedTxKeys):
  // no hex is made, and Map lookups compare a string with itself.
  const key = rememberedKeys?.[index];
  if (key !== undefined) return key;
  const hash = remembered?.[index];
  return hash !== undefined ? txKeyOf(hash) : txHashHex(tx);
}

/** Appends "type.key" → value for every ABCI event attribute (empty types and keys skipped). */
export function addAbciEventKeys(into: Record<string, string[]>, events: readonly Event[]): void {
  for (const event of events) {
    if (event.type === "") continue;
    for (const attribute of event.attributes) {
      const key = text(attribute.key as Uint8Array | string);
      if (key === "") continue;
      const composite = `${event.type}.${key}`;
      const value = text(attribute.value as Uint8Array | string);
      const list = into[composite];
      if (list) list.push(value);
      else into[composite] = [value];
    }
  }
}

export class EventBus {
  private readonly subject = new Subject<NodeEvent>();
  readonly events$ = this.subject.asObservable();

  publish(event: NodeEvent): void {
    this.subject.next(event);
  }

  /** A consensus event (NewRoundStep, Vote, …): only tm.event as key. */
  publishConsensus(name: ConsensusEventName, data: ConsensusEventData): void {
    if (!this.subject.observed) return;
    const { kind: _kind, ...value } = data as ConsensusEventData & { kind: string };
    this.publish({ type: name, data: value, events: { "tm.event": [name] } });
  }

  /** The events of a committed block, in Tendermint's order: NewBlock, NewBlockHeader, Tx…, ValidatorSetUpdates. */
  publishBlock(
    block: Block,
    events: BlockEvents,
    resultBeginBlock: ResponseBeginBlock,
    resultEndBlock: ResponseEndBlock,
    validatorUpdates: Validator[],
  ): void {
    if (!this.subject.observed) return;
    const blockKeys = (name: string) => {
      const keys: Record<string, string[]> = { "tm.event": [name] };
      addAbciEventKeys(keys, events.beginBlock);
      addAbciEventKeys(keys, events.endBlock);
      return keys;
    };
    this.publish({
      type: "NewBlock",
      data: { block, resultBeginBlock, resultEndBlock },
      events: blockKeys("NewBlock"),
    });
    this.publish({
      type: "NewBlockHeader",
      data: { header: block.header, numTxs: BigInt(block.data.txs.length), resultBeginBlock, resultEndBlock },
      events: blockKeys("NewBlockHeader"),
    });
    // The block's data hash (made or checked here before the block was committed) remembered
    // each tx's sha256: only the hex is made, no tx is hashed again for its event.
    const hashes = rememberedTxHashes(block.data.txs);
    const txKeys = rememberedTxKeys(block.data.txs);
    for (const txResult of events.txs) {
      const keys: Record<string, string[]> = {};
      addAbciEventKeys(keys, txResult.result?.events ?? []);
      keys["tm.event"] = ["Tx"];
      keys["tx.hash"] = [blockTxHashHex(txResult.tx, hashes, txResult.index, txKeys)];
      keys["tx.height"] = [txResult.height.toString()];
      this.publish({ type: "Tx", data: { txResult }, events: keys });
    }
    if (validatorUpdates.length > 0) {
      this.publish({
        type: "ValidatorSetUpdates",
        data: { validatorUpdates },
        events: { "tm.event": ["ValidatorSetUpdates"] },
      });
    }
  }

  complete(): void {
    this.subject.complete();
  }
}
