// The network bench's p2p bytes (test/bench/p2p-sent-bytes.ts): the message-type counters are read
// from Prometheus text whatever the namespace, other series are ignored, nodes are summed, and the
// per-tx figures are what was sent between the two readings.
import assert from "node:assert/strict";
import { test } from "node:test";
import { bytesPerTx, sentBytesByType, sumByType } from "../bench/p2p-sent-bytes.js";

const node = (
  parts: number,
  txs: number,
) => `# HELP tendermint_p2p_message_send_bytes_total Number of bytes of each message type sent.
# TYPE tendermint_p2p_message_send_bytes_total counter
tendermint_p2p_message_send_bytes_total{chain_id="bench",message_type="consensus_BlockPart"} ${parts}
tendermint_p2p_message_send_bytes_total{message_type="mempool_Txs",chain_id="bench"} ${txs}
tendermint_p2p_message_receive_bytes_total{message_type="consensus_BlockPart"} 999999
tendermint_p2p_peer_send_bytes_total{peer_id="ab",chID="0x21"} 888888
`;

test("sent bytes are read by message type, received bytes and per-peer series left out", () => {
  const read = sentBytesByType(node(300, 20));
  assert.deepEqual(
    [...read],
    [
      ["consensus_BlockPart", 300],
      ["mempool_Txs", 20],
    ],
  );
  assert.deepEqual(
    [...sentBytesByType(node(1, 2).replaceAll("tendermint_", "rx_"))],
    [
      ["consensus_BlockPart", 1],
      ["mempool_Txs", 2],
    ],
  );
  assert.throws(() => sentBytesByType(node(300, 20).replace(" 20\n", " x\n")), /mempool_Txs.*"x"/);
});

test("nodes are summed, and per tx is what was sent between the readings, largest first", () => {
  const before = sumByType([sentBytesByType(node(100, 10)), sentBytesByType(node(50, 10))]);
  assert.equal(before.get("consensus_BlockPart"), 150);
  const after = sumByType([
    sentBytesByType(node(1100, 210)),
    sentBytesByType(
      `${node(2050, 10)}tendermint_p2p_message_send_bytes_total{message_type="consensus_Vote"} 40\n`,
    ),
  ]);
  const perTx = bytesPerTx(before, after, 10);
  assert.deepEqual(perTx, { all: 324, consensus_BlockPart: 300, mempool_Txs: 20, consensus_Vote: 4 });
  assert.deepEqual(Object.keys(perTx), ["all", "consensus_BlockPart", "mempool_Txs", "consensus_Vote"]);
  assert.throws(() => bytesPerTx(before, after, 0), /committed txs, got 0/);
});
