// The restart rule for SignFailed (streams/restart-fold.ts): a signing failure halts the run that
// folded it; at a restart an I/O failure is not folded again (the node resumes and asks for the
// signature again), while a refusal of the signer (double-sign protection) halts again. The rule
// reads only the logged record, so folding the same log twice gives the same states and effects.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import type { ConsensusInput } from "../../src/consensus/input.js";
import { PrivvalError } from "../../src/privval/errors.js";
import {
  codedSignError,
  type FoldStep,
  foldRestart,
  isRefolded,
  outstandingEffects,
} from "../../streams/restart-fold.js";
import { at, genesisChain, TestNode } from "./consensus-harness.js";

/** A single validator that asked for its proposal's signature and got `reason` back; the log so far. */
function failedRun(reason: string) {
  const node = new TestNode({ own: 0, chain: genesisChain([10n]) });
  node.startRound0();
  const asked = node.feed({ type: "ProposalBlockReaped", height: 1n, round: 0, txs: [], evidence: [] });
  assert.deepEqual(
    asked.map((e) => e.type),
    ["SignProposal"],
  );
  const halted = node.feed({ type: "SignFailed", height: 1n, round: 0, what: "proposal", reason });
  assert.equal(halted[0]?.type, "Halt", "the live run halts on any SignFailed");
  assert.ok(node.state.halted);
  return node;
}

function restart(node: TestNode) {
  const started: ConsensusInput = {
    type: "ConsensusStarted",
    time: at(5000),
    chainState: node.chain,
    lastCommit: undefined,
    lastBlockAppHash: new Uint8Array(0),
  };
  const steps: FoldStep[] = [];
  const fresh = new TestNode({ own: 0, chain: node.chain });
  const state = foldRestart(fresh.reducer, fresh.state, started, node.log, (s) => steps.push(s));
  return { state, steps, pending: outstandingEffects(steps) };
}

describe("streams: SignFailed at a restart", () => {
  it("codes a failure: the signer's code for a PrivvalError, SIGNER_IO for anything else", () => {
    const refusal = new PrivvalError("PRIVVAL_CONFLICTING_DATA", "conflicting data: refusing");
    assert.equal(codedSignError(refusal).message, "PRIVVAL_CONFLICTING_DATA: conflicting data: refusing");
    const io = Object.assign(new Error("EIO: i/o error, fsync"), { code: "EIO" });
    assert.equal(codedSignError(io).message, "SIGNER_IO: EIO: i/o error, fsync");
  });

  it("an I/O failure is not re-applied: the restarted node resumes and asks the signer again", () => {
    const node = failedRun(
      codedSignError(Object.assign(new Error("ENOSPC: no space"), { code: "ENOSPC" })).message,
    );
    const { state, pending, steps } = restart(node);
    assert.equal(state.halted, undefined, "not halted after the restart");
    assert.ok(!steps.some((s) => s.input.type === "SignFailed"), "the SignFailed is not folded again");
    assert.ok(
      pending.some((e) => e.type === "SignProposal"),
      "the signature is asked again",
    );
    assert.ok(!pending.some((e) => e.type === "Halt"));
    // The signer's state-file write failure is I/O too.
    const write = failedRun(
      codedSignError(new PrivvalError("PRIVVAL_STATE_WRITE_FAILED", "signer state could not be saved"))
        .message,
    );
    assert.equal(restart(write).state.halted, undefined);
  });

  it("a double-sign refusal (or a reason without a transient code, as older logs have) still halts", () => {
    for (const reason of [
      codedSignError(new PrivvalError("PRIVVAL_HRS_REGRESSION", "height regression")).message,
      "conflicting data: refusing to sign a different proposal",
    ]) {
      const { state, pending } = restart(failedRun(reason));
      assert.match(state.halted ?? "not halted", /signing our proposal for height 1 round 0 failed/);
      assert.ok(
        pending.some((e) => e.type === "Halt"),
        reason,
      );
      assert.ok(!pending.some((e) => e.type === "SignProposal"), "nothing is signed");
    }
  });

  it("is deterministic: the same log folded again gives the same states and effects", () => {
    const log = failedRun(codedSignError(new Error("EIO")).message).log;
    const failed = log.find((i) => i.type === "SignFailed");
    assert.ok(failed && !isRefolded(failed), "decided by the logged record alone");
    const a = restart(failedRun(codedSignError(new Error("EIO")).message));
    const b = restart(failedRun(codedSignError(new Error("EIO")).message));
    assert.deepEqual(
      a.steps.map((s) => [s.input.type, s.state, s.effects]),
      b.steps.map((s) => [s.input.type, s.state, s.effects]),
    );
  });
});
