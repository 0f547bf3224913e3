// The bytes of subscription messages in both result forms (rpc.compat "seed" and "tendermint"):
// whatever the hub shares between subscribers (one encoded body per event, one message string
// per subscribe id and query), each subscriber's message must be exactly the per-subscriber
// form built from scratch: `{"jsonrpc":"2.0","id":<its id>,"result":{"query":<its query>,
// "data":<the event's data>,"events":<the event's events>}}`.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import type { RpcEvent } from "../../src/rpc/context.js";
import { goJsonString, type JsonRpcId } from "../../src/rpc/jsonrpc/envelope.js";
import { encoders } from "../../streams/projections/rpc-encoders.js";
import { DELIVER_TX, utf8 } from "../golden/rpc-json-fixtures.js";
import { RecordingConnection as Connection, hubOverSource } from "./rpc-hub-fixture.js";

function txEvent(key: string, n: number): RpcEvent {
  const tx = utf8(`${key}=v${n}<&>`);
  return {
    type: "Tx",
    data: { txResult: { height: BigInt(n), index: n % 3, tx, result: DELIVER_TX } },
    events: {
      "tm.event": ["Tx"],
      "tx.hash": [`HASH${n}`],
      "tx.height": [String(n)],
      "app.key": [key],
      "app.creator": ["Cosmoshi <&>"],
    },
  };
}

/** The message as each subscriber's own string, built from nothing the hub shares. */
function expected(encoder: (typeof encoders)["seed"], id: JsonRpcId, query: string, event: RpcEvent): string {
  const idJson = typeof id === "number" ? String(id) : goJsonString(id);
  return (
    `{"jsonrpc":"2.0","id":${idJson},"result":{"query":${goJsonString(query)},` +
    `"data":${encoder.encodeEventData(event)},"events":${JSON.stringify(event.events)}}}`
  );
}

describe("subscription messages", () => {
  for (const form of ["seed", "tendermint"] as const) {
    it(`are the per-subscriber bytes in the ${form} form, shared or not`, () => {
      const encoder = encoders[form];
      const { hub, publish } = hubOverSource(encoder);
      // Firehose subscribers sharing id and query (the shared message), one with another id, one
      // with a string id, the same query spelled differently, and filtered ones by key.
      const subscriptions: { connection: Connection; query: string; id: JsonRpcId }[] = [];
      const add = (query: string, id: JsonRpcId) => {
        const connection = new Connection(`127.0.0.1:${subscriptions.length}`);
        hub.subscribe(connection, query, id);
        subscriptions.push({ connection, query, id });
      };
      for (let i = 0; i < 4; i++) add("tm.event='Tx'", 1);
      add("tm.event='Tx'", 2);
      add("tm.event='Tx'", 'a"<b>');
      add("tm.event = 'Tx'", 1);
      add("tm.event='Tx'", 1);
      for (const key of ["k0", "k1"]) add(`tm.event='Tx' AND app.key='${key}'`, 1);

      const events = [txEvent("k0", 1), txEvent("k1", 2), txEvent("k2", 3), txEvent("k0", 4)];
      for (const event of events) publish(event);
      hub.flush();

      for (const { connection, query, id } of subscriptions) {
        const key = /app\.key='(k\d)'/.exec(query)?.[1];
        const matching = events.filter((e) => key === undefined || e.events["app.key"]?.[0] === key);
        assert.deepEqual(
          connection.sent,
          matching.map((e) => expected(encoder, id, query, e)),
          `${query} id ${JSON.stringify(id)}`,
        );
      }
      // and the forms really differ, so each was checked in its own bytes
      assert.notEqual(
        encoders.seed.encodeEventData(events[0] as RpcEvent),
        encoders.tendermint.encodeEventData(events[0] as RpcEvent),
      );
    });
  }
});
