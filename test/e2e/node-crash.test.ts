// kill -9 at random moments, 20 times, with a restart after each: the chain continues; no height
// is ever committed with two different blocks (hashes from every run's log agree with each other
// and with the final block store); the signer's state never goes backwards; and the consensus
// log never holds two different signed votes or proposals for one height, round and step.
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { after, test } from "node:test";
import type { ConsensusInput } from "../../src/consensus/input.js";
import { openStores } from "../../src/store/open-stores.js";
import { readWal } from "../../src/wal/log-reader.js";
import { initFastHome, killAllNodes, NodeProcess } from "./node-harness.js";

after(killAllNodes);

const FAST = {
  timeout_commit: "50ms",
  timeout_propose: "1s",
  timeout_prevote: "300ms",
  timeout_precommit: "300ms",
};
const KILLS = 20;
const hex = (b: Uint8Array) => Buffer.from(b).toString("hex").toUpperCase();

/** A small deterministic generator, so a failing run can be repeated from its seed. */
function random(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s * 1664525 + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}

function signerPosition(home: string): [bigint, number, number] {
  const s = JSON.parse(readFileSync(join(home, "data", "priv_validator_state.json"), "utf8"));
  return [BigInt(s.height), s.round, s.step];
}

function notBefore(a: [bigint, number, number], b: [bigint, number, number]): boolean {
  if (a[0] !== b[0]) return a[0] > b[0];
  if (a[1] !== b[1]) return a[1] > b[1];
  return a[2] >= b[2];
}

test(`${KILLS} kill -9 at random moments: the chain continues, safely`, { timeout: 240_000 }, async () => {
  const seed = Number(process.env.CRASH_SEED ?? Date.now() % 1_000_000);
  const rand = random(seed);
  const home = await initFastHome(FAST, "rxbft-crash-");
  const hashes = new Map<bigint, string>();
  let position = signerPosition(home);
  let highest = 0n;
  const record = (node: NodeProcess) => {
    for (const c of node.committed) {
      const known = hashes.get(c.height);
      assert.ok(
        known === undefined || known === c.hash,
        `seed ${seed}: height ${c.height} committed as ${known} and ${c.hash}`,
      );
      hashes.set(c.height, c.hash);
      if (c.height > highest) highest = c.height;
    }
  };

  for (let i = 0; i < KILLS; i++) {
    const node = new NodeProcess(home);
    // Some kills land during start-up (handshake, log replay), most while heights are committed.
    await node.waitFor(() => node.output.includes("consensus started"), "consensus to start", 60_000);
    await new Promise((r) => setTimeout(r, Math.floor(rand() * 700)));
    node.kill("SIGKILL");
    const exit = await node.exited;
    assert.equal(
      exit.signal,
      "SIGKILL",
      `seed ${seed}: run ${i} ended on its own:\n${node.output.slice(-2000)}`,
    );
    record(node);
    const now = signerPosition(home);
    assert.ok(notBefore(now, position), `seed ${seed}: signer state went back from ${position} to ${now}`);
    position = now;
  }

  // The chain continues past everything committed before, and stops cleanly.
  const last = new NodeProcess(home);
  await last.waitFor(() => last.height >= highest + 3n, `height ${highest + 3n}`, 60_000);
  last.kill("SIGINT");
  assert.equal((await last.exited).code, 0, last.output.slice(-2000));
  record(last);
  assert.ok(highest >= 5n, `seed ${seed}: only ${highest} heights in ${KILLS} runs`);

  const stores = await openStores(join(home, "data"), { indexer: "kv" });
  try {
    for (const [height, hash] of hashes) {
      const meta = await stores.blockStore.loadBlockMeta(height);
      assert.equal(hex(meta!.blockId!.hash), hash, `seed ${seed}: block store at ${height}`);
    }
    assert.equal(stores.blockStore.height(), last.height);
  } finally {
    await stores.close();
  }

  // Our own signed messages in the log: one value per (height, round, step).
  const signed = new Map<string, string>();
  for await (const entry of readWal(join(home, "data", "cs.wal"))) {
    if (entry.kind !== "input") continue;
    const input = entry.input as ConsensusInput;
    let key: string | undefined;
    let value: string | undefined;
    if (input.type === "VoteSigned") {
      key = `${input.vote.height}/${input.vote.round}/${input.vote.type}`;
      value = hex(input.vote.blockId?.hash ?? new Uint8Array(0));
    } else if (input.type === "ProposalSigned") {
      key = `${input.proposal.height}/${input.proposal.round}/proposal`;
      value = `${hex(input.proposal.blockId?.hash ?? new Uint8Array(0))}/${input.proposal.polRound}`;
    }
    if (key === undefined) continue;
    const known = signed.get(key);
    assert.ok(
      known === undefined || known === value,
      `seed ${seed}: two signed messages at ${key}: ${known} and ${value}`,
    );
    signed.set(key, value!);
  }
  assert.ok(signed.size > 0);
});
