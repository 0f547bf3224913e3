// What a simulated validator's signatures cost its peers: the first signature of each signer is
// verified for real (proving the signer's key is the validator's), every later one is known valid
// to the run's verifier from the signer's own last-sign state, so receivers answer from the memo,
// and only when the key and the sign bytes they compute match. A signer holding another key is
// caught at its first signature.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { EMPTY, Subject, VirtualTimeScheduler } from "rxjs";
import { DEFAULT_CONSENSUS_CONFIG } from "../../src/consensus/config.js";
import type { ConsensusEffect } from "../../src/consensus/effect.js";
import type { ConsensusInput } from "../../src/consensus/input.js";
import { SignedMsgType, type Vote } from "../../src/wire/generated/tendermint/types/types.js";
import { voteSignBytes } from "../../src/wire/sign-bytes.js";
import { consensusHandlers } from "../../streams/effects/consensus-handlers.js";
import { Prng } from "./prng.js";
import { scenarioFromSeed } from "./scenario.js";
import { genesisState, makeKeys, SIM_CHAIN_ID, type SimKey } from "./sim-chain.js";
import { type NodeObserver, SimNode } from "./sim-node.js";
import { MemoVerifier } from "./sim-verify.js";
import { runSimulation } from "./simulation.js";

const keys = makeKeys(new Prng(91), 4);
/** An observer that hears nothing but what a test adds. */
const QUIET = Object.fromEntries(
  ["decided", "executed", "halted", "rejected", "reported", "crashed", "error"].map((n) => [n, () => {}]),
) as unknown as NodeObserver;

function validator(key: SimKey, verifier: MemoVerifier, errors: unknown[]): SimNode {
  return new SimNode({
    index: 0,
    key,
    genesis: genesisState(keys, [10n, 10n, 10n, 10n]),
    config: DEFAULT_CONSENSUS_CONFIG,
    scheduler: new VirtualTimeScheduler(),
    verifier,
    mempool: new Prng(92),
    network: { send() {} },
    observer: { ...QUIET, error: (_node: number, error: unknown) => errors.push(error) },
    executionMs: 3,
  });
}

/** The validator's own handler table (one signer); signs a vote through it and returns the signed vote. */
function signerOf(node: SimNode): (vote: Vote) => Vote {
  const effect$ = new Subject<ConsensusEffect>();
  const answers: ConsensusInput[] = [];
  for (const handler of consensusHandlers(node.handlerDeps()))
    handler(effect$, EMPTY).subscribe((input) => answers.push(input));
  return (vote) => {
    effect$.next({ type: "SignVote", vote });
    const answer = answers.at(-1);
    assert.ok(answer?.type === "VoteSigned", `signed: ${JSON.stringify(answer?.type)}`);
    return answer.vote;
  };
}

const prevote = (key: SimKey, height: bigint): Vote => ({
  type: SignedMsgType.SIGNED_MSG_TYPE_PREVOTE,
  height,
  round: 0,
  blockId: { hash: new Uint8Array(0), partSetHeader: { total: 0, hash: new Uint8Array(0) } },
  timestamp: { seconds: 1_700_000_001n, nanos: 0 },
  validatorAddress: key.address,
  validatorIndex: 0,
  signature: new Uint8Array(0),
});

describe("simulation: a validator's own signatures", () => {
  it("are verified for real once per signer, then answered from the memo when the bytes match", () => {
    const verifier = new MemoVerifier();
    const errors: unknown[] = [];
    const node = validator(keys[0]!, verifier, errors);
    const sign = signerOf(node);
    const first = sign(prevote(keys[0]!, 1n));
    assert.equal(verifier.real, 1, "the first signature is checked for real");
    const second = sign(prevote(keys[0]!, 2n));
    assert.equal(verifier.real, 1, "a later one is not");
    const bytes = (v: Vote) => voteSignBytes(SIM_CHAIN_ID, v);
    assert.equal(verifier.verify(keys[0]!.publicKey, bytes(second), second.signature), true);
    assert.equal(verifier.real, 1, "a receiver's check of it is answered by the memo");
    // Other bytes under the same signature are no memo hit: they are verified, and fail.
    assert.equal(verifier.verify(keys[0]!.publicKey, bytes(first), second.signature), false);
    assert.equal(verifier.real, 2);
    assert.deepEqual(errors, []);
  });

  it("from a signer holding another validator's key are caught at the first signature", () => {
    const errors: unknown[] = [];
    const node = validator({ ...keys[0]!, secret: keys[1]!.secret }, new MemoVerifier(), errors);
    signerOf(node)(prevote(keys[0]!, 1n));
    assert.equal(errors.length, 1);
    assert.match(String(errors[0]), /does not verify with the validator's key/);
  });

  it("are refused when the signer answers later, not read from a stale last-sign state", () => {
    const node = validator(keys[0]!, new MemoVerifier(), []);
    // A state store that saves durably only later, as a file does: the signer answers a Promise.
    const store = node.signState as { save(state: unknown): void | Promise<void> };
    const save = store.save.bind(store);
    store.save = (state) => {
      save(state);
      return Promise.resolve();
    };
    const effect$ = new Subject<ConsensusEffect>();
    const failures: unknown[] = [];
    const answers: ConsensusInput[] = [];
    for (const handler of consensusHandlers(node.handlerDeps()))
      handler(effect$, EMPTY).subscribe({
        next: (input) => answers.push(input),
        error: (e) => failures.push(e),
      });
    effect$.next({ type: "SignVote", vote: prevote(keys[0]!, 1n) });
    // The node's signing handler answers a signer's failure as SignFailed (consensus halts on it).
    assert.deepEqual(failures, []);
    const answer = answers.at(-1);
    assert.equal(answers.length, 1);
    assert.ok(answer?.type === "SignFailed", `answer: ${answer?.type}`);
    assert.match(answer.reason, /answered later \(a Promise\).*must sign synchronously/);
  });

  it("leave a calm run one real verification per validator", () => {
    const outcome = runSimulation(scenarioFromSeed(3, { kind: "calm", validators: 4, heights: 4 }));
    assert.ok(outcome.ok, outcome.failures.join("; "));
    assert.equal(outcome.stats.realVerifications, 4);
    assert.ok(outcome.stats.memoisedVerifications > 4 * 4 * 3);
  });
});
