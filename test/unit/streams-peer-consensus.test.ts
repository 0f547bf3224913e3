// The source step for peer consensus messages (streams/sources/peer-consensus.ts): in front of a
// consensus loop, a vote with a bad signature is rejected (reported, never logged nor folded), a
// good one passes through to the log, and a vote for another height is ignored. Signatures are
// verified on a real VerifyPool; real ed25519 keys.
import assert from "node:assert/strict";
import { after, describe, it } from "node:test";
import { Subject } from "rxjs";
import type { ConsensusEffect } from "../../src/consensus/effect.js";
import { createDefaultConsensusRules } from "../../src/consensus/index.js";
import type { ConsensusInput } from "../../src/consensus/input.js";
import type { ConsensusState } from "../../src/consensus/state.js";
import { verifyConsensusInput } from "../../src/consensus/verify-input.js";
import { keyPairFromSeed, signEd25519 } from "../../src/crypto/ed25519-keys.js";
import { VerifyPool } from "../../src/crypto/verify-pool.js";
import type { Vote } from "../../src/wire/generated/tendermint/types/types.js";
import { voteSignBytes } from "../../src/wire/sign-bytes.js";
import { createLoop } from "../../streams/loop.js";
import {
  type PeerConsensusInput,
  peerConsensusSource,
  verifyPeerInput,
} from "../../streams/sources/peer-consensus.js";
import { UNSTAMPED } from "../../streams/sources/stamp-time.js";
import { genesisChain, NIL, TestNode } from "./consensus-harness.js";

const keys = [1, 2, 3, 4].map((i) => keyPairFromSeed(new Uint8Array(32).fill(i)));
const chain = genesisChain(
  keys.map(() => 10n),
  keys.map((k) => k.publicKey),
);
const pool = new VerifyPool({ size: 0 });
after(() => pool.close());

function signedVote(node: TestNode, index: number, height = node.state.height): Vote {
  const vote = { ...node.vote(index, "prevote", 0, NIL), height };
  const pub = (node.validators[index]!.pubKey.sum as { ed25519: Uint8Array }).ed25519;
  const key = keys.find((k) => Buffer.from(k.publicKey).equals(Buffer.from(pub)))!;
  return { ...vote, signature: signEd25519(key.privateKey, voteSignBytes(chain.chainId, vote)) };
}

describe("streams: the peer consensus source step", () => {
  it("rejects a bad signature before the log and passes a good vote through to it", async () => {
    const node = new TestNode({ own: 3, chain });
    node.startRound0();
    const messages$ = new Subject<PeerConsensusInput>();
    const rejected: string[] = [];
    const ignored: string[] = [];
    const logged: ConsensusInput[] = [];
    let latest: ConsensusState = node.state;
    const loop = createLoop<ConsensusState, ConsensusInput, ConsensusEffect, ConsensusInput>({
      initialState: node.state,
      reducer: node.reducer,
      sources: [
        peerConsensusSource(messages$, {
          state: () => latest,
          rules: createDefaultConsensusRules(),
          verifier: pool,
          rejected: (from, _input, reason) => rejected.push(`${from}: ${reason}`),
          ignored: (from, _input, reason) => ignored.push(`${from}: ${reason}`),
        }),
      ],
      stamp: (input) => input,
      toInput: (record) => record,
      append: (record) => logged.push(record),
      handlers: [],
      onFault: (fault) => assert.fail(fault.reason),
    });
    const running = loop.state$.subscribe((s) => {
      latest = s;
    });
    running.add(loop.start());
    const good = signedVote(node, 1);
    const forged = { ...signedVote(node, 2), signature: signedVote(node, 1).signature };
    const vote = (v: Vote, from: string): PeerConsensusInput => ({
      type: "VoteReceived",
      time: UNSTAMPED,
      vote: v,
      from,
    });
    messages$.next(vote(forged, "bad-peer"));
    messages$.next(vote(good, "good-peer"));
    messages$.next(vote(signedVote(node, 1, 9n), "early-peer"));
    messages$.complete();
    await new Promise((r) => setTimeout(r, 50));
    running.unsubscribe();

    assert.deepEqual(
      logged.map((i) => (i.type === "VoteReceived" ? i.from : i.type)),
      ["good-peer"],
      "only the good vote reaches the log",
    );
    assert.equal(rejected.length, 1);
    assert.match(rejected[0]!, /^bad-peer: vote\.signature of validator 2 .* does not verify/);
    assert.equal(ignored.length, 1);
    assert.match(ignored[0]!, /^early-peer: vote for height 9/);
    // The good vote was folded: the vote keeper holds it.
    assert.notDeepEqual(latest, node.state);
  });

  it("decides a vote whose signatures are all good in one pass of the check, a bad one in two", async () => {
    const node = new TestNode({ own: 3, chain });
    node.startRound0();
    const rules = createDefaultConsensusRules();
    // Counts the check's reads of the vote's signature: one per pass of verifyConsensusInput.
    const counted = (v: Vote) => {
      const reads = { signature: 0 };
      const proxy = new Proxy(v, {
        get(target, key, receiver) {
          if (key === "signature") reads.signature++;
          return Reflect.get(target, key, receiver);
        },
      });
      const input: ConsensusInput = { type: "VoteReceived", time: UNSTAMPED, vote: proxy, from: "p" };
      return { reads, input };
    };
    const once = counted(signedVote(node, 1));
    verifyConsensusInput(node.state, once.input, rules, () => true);
    const good = counted(signedVote(node, 1));
    assert.equal((await verifyPeerInput(node.state, good.input, rules, pool)).kind, "accept");
    assert.equal(good.reads.signature, once.reads.signature, "one pass for a good vote");
    const bad = counted({ ...signedVote(node, 2), signature: signedVote(node, 1).signature });
    assert.equal((await verifyPeerInput(node.state, bad.input, rules, pool)).kind, "reject");
    assert.equal(bad.reads.signature, 2 * once.reads.signature, "a second pass names the bad signature");
  });
});
