// What a run observed, and the checks made on it: safety (no two different blocks decided at one
// height by honest validators, and no validator deciding twice differently), liveness (every
// honest validator executed the target height in time), evidence (a DuplicateVoteEvidence naming
// each validator that double-voted was committed, and none naming an honest one), no honest
// validator halted, and no honest message was rejected by the source step.
import type { CommitBlock } from "../../src/consensus/effect.js";
import type { Block } from "../../src/wire/generated/tendermint/types/block.js";
import type { NodeObserver } from "./sim-node.js";

const hex = (b: Uint8Array) => Buffer.from(b).toString("hex").toUpperCase();

export class RunRecord implements NodeObserver {
  /** Per node, the hash decided at each height (index = height - 1). */
  readonly decisions: string[][];
  readonly executedHeight: bigint[];
  readonly violations: string[] = [];
  readonly halts: string[] = [];
  readonly rejections: string[] = [];
  /** Addresses (hex) named by evidence in blocks honest validators executed. */
  readonly accused = new Set<string>();
  /** Decided hash per height, and who decided it first. */
  private readonly byHeight = new Map<bigint, { hash: string; node: number }>();
  readonly errors: string[] = [];
  /** Per accused address (hex): honest validators that reported its conflicting votes, and still
   * held the report (did not crash after it) — they owe the evidence. */
  readonly owedEvidence = new Map<string, Set<number>>();
  onExecuted: (() => void) | undefined;

  constructor(
    count: number,
    private readonly honest: (node: number) => boolean,
    /** Conflicts seen at heights above this have too few heights left to be committed in. */
    private readonly evidenceDueUpTo: bigint,
  ) {
    this.decisions = Array.from({ length: count }, () => []);
    this.executedHeight = Array.from({ length: count }, () => 0n);
  }

  decided(node: number, e: CommitBlock): void {
    if (!this.honest(node)) return;
    const hash = hex(e.blockId.hash);
    const slot = Number(e.height) - 1;
    const mine = this.decisions[node]!;
    if (mine[slot] !== undefined && mine[slot] !== hash)
      this.violations.push(`v${node} decided ${mine[slot]} and then ${hash} at height ${e.height}`);
    mine[slot] = hash;
    const first = this.byHeight.get(e.height);
    if (first === undefined) this.byHeight.set(e.height, { hash, node });
    else if (first.hash !== hash)
      this.violations.push(
        `height ${e.height}: v${first.node} decided ${first.hash} but v${node} decided ${hash} (round ${e.round})`,
      );
  }

  executed(node: number, height: bigint, block: Block): void {
    if (!this.honest(node)) return;
    if (height > this.executedHeight[node]!) this.executedHeight[node] = height;
    for (const item of block.evidence?.evidence ?? []) {
      const sum = item.sum;
      if (sum?.$case === "duplicateVoteEvidence" && sum.duplicateVoteEvidence.voteA)
        this.accused.add(hex(sum.duplicateVoteEvidence.voteA.validatorAddress));
    }
    this.onExecuted?.();
  }

  halted(node: number, reason: string): void {
    if (this.honest(node)) this.halts.push(`v${node} halted: ${reason}`);
  }

  reported(node: number, address: Uint8Array, height: bigint): void {
    if (!this.honest(node) || height > this.evidenceDueUpTo) return;
    const key = hex(address);
    const owers = this.owedEvidence.get(key) ?? new Set<number>();
    owers.add(node);
    this.owedEvidence.set(key, owers);
  }

  crashed(node: number): void {
    // The evidence pool lives in memory (as in the node): a crash loses what it held.
    for (const owers of this.owedEvidence.values()) owers.delete(node);
  }

  error(node: number, error: unknown): void {
    this.errors.push(`v${node}: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
  }

  rejected(node: number, from: number, reason: string): void {
    if (this.honest(node) && this.honest(from))
      this.rejections.push(`v${node} rejected a message of honest v${from}: ${reason}`);
  }
}
