// Whether one indexed document (a tx result, or a block's begin/end events) satisfies a query,
// matching app attributes WITHIN ONE EVENT: conditions whose keys agree up to their last "."
// (the event type, e.g. `transfer` in `transfer.sender`) must all be met by the same event.
// Conditions on different event types are met by their own events. Reserved keys (tm.event,
// tx.hash, tx.height / block.height) and dot-less EXISTS tags are properties of the document.
// Only attributes stored with index=true take part, as only they are indexed.
// Pure: no I/O; the executor loads documents and calls this.
import type { Condition } from "../../query/ast.js";
import type { Event } from "../../wire/generated/tendermint/abci/types.js";
import { type ValueTest, valueTestOf } from "./condition-test.js";

export interface IndexedDocument {
  height: bigint;
  /** Upper-case hex hash (txs only). */
  hashHex?: string;
  events: readonly Event[];
}

/** What differs between the tx index and the block index. */
export interface DocumentKind {
  /** The value of tm.event for documents of this kind ("Tx" or "NewBlock"). */
  eventName: string;
  /** The reserved height key ("tx.height" or "block.height"). */
  heightKey: string;
  /** The reserved hash key ("tx.hash"), if documents have one. */
  hashKey?: string;
}

export const TX_DOCUMENT: DocumentKind = { eventName: "Tx", heightKey: "tx.height", hashKey: "tx.hash" };
export const BLOCK_DOCUMENT: DocumentKind = { eventName: "NewBlock", heightKey: "block.height" };

export type DocumentMatcher = (document: IndexedDocument) => boolean;

const utf8 = new TextDecoder();

/** The event type a condition's key belongs to: everything before its last ".". */
export function eventTypeOf(key: string): string | undefined {
  const dot = key.lastIndexOf(".");
  return dot <= 0 ? undefined : key.slice(0, dot);
}

export function isReservedKey(key: string, kind: DocumentKind): boolean {
  return key === "tm.event" || key === kind.heightKey || key === kind.hashKey;
}

interface CompiledCondition {
  key: string;
  exists: boolean;
  test: ValueTest;
}

/** Composite key → values of the indexed attributes of one event. */
function attributeMap(event: Event): Map<string, string[]> {
  const map = new Map<string, string[]>();
  for (const attribute of event.attributes) {
    if (!attribute.index) continue;
    const key = `${event.type}.${utf8.decode(attribute.key)}`;
    const value = utf8.decode(attribute.value);
    const values = map.get(key);
    if (values === undefined) map.set(key, [value]);
    else values.push(value);
  }
  return map;
}

function eventMeets(map: Map<string, string[]>, conditions: readonly CompiledCondition[]): boolean {
  for (const condition of conditions) {
    const values = map.get(condition.key);
    if (values === undefined) return false;
    if (!condition.exists && !values.some(condition.test)) return false;
  }
  return true;
}

export function compileDocumentMatcher(
  conditions: readonly Condition[],
  kind: DocumentKind,
): DocumentMatcher {
  const documentTests: DocumentMatcher[] = [];
  const groups = new Map<string, CompiledCondition[]>();
  for (const condition of conditions) {
    const test = valueTestOf(condition);
    const exists = condition.op === "EXISTS";
    if (condition.key === "tm.event") {
      documentTests.push(() => test(kind.eventName));
    } else if (condition.key === kind.heightKey) {
      documentTests.push((d) => test(d.height.toString()));
    } else if (condition.key === kind.hashKey) {
      // Hashes are hex: equality ignores case, as a hex decode would.
      const operand = condition.operand;
      const hashTest =
        condition.op === "=" && operand?.kind === "string"
          ? (hex: string) => hex === operand.value.toUpperCase()
          : test;
      documentTests.push((d) => d.hashHex !== undefined && hashTest(d.hashHex));
    } else if (exists && !condition.key.includes(".")) {
      // `transfer EXISTS`: any indexed composite key starting with the tag, in any event.
      const tag = condition.key;
      const reserved = [kind.heightKey, kind.hashKey ?? "", "tm.event"].filter(
        (k) => k !== "" && k.startsWith(tag),
      );
      documentTests.push(
        (d) =>
          reserved.length > 0 ||
          d.events.some((e) =>
            e.attributes.some((a) => a.index && `${e.type}.${utf8.decode(a.key)}`.startsWith(tag)),
          ),
      );
    } else {
      const group = eventTypeOf(condition.key) ?? condition.key;
      const list = groups.get(group) ?? [];
      list.push({ key: condition.key, exists, test });
      groups.set(group, list);
    }
  }
  const groupLists = [...groups.values()];
  return (document) => {
    for (const test of documentTests) if (!test(document)) return false;
    if (groupLists.length === 0) return true;
    const maps = document.events.map(attributeMap);
    for (const group of groupLists) {
      if (!maps.some((map) => eventMeets(map, group))) return false;
    }
    return true;
  };
}
