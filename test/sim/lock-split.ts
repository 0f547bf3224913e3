// A scripted fault that puts the lock rule to work (it is what "ignore the lock" breaks), for n
// equal validators at height H. q = the smallest quorum (3q > 2n); the outsiders O are n − q
// validators including p1, the proposer of round 1 (and not the proposer of round 0); X is one
// of the others; the rest, L, are q − 1 validators. Until the heal time:
//   - O never gets round 0's proposal and parts, nor X's round-0 prevote: it prevotes nil and sees
//     q − 1 prevotes for the proposal, no polka, so it precommits nil and p1 later proposes a
//     fresh block in round 1;
//   - X's round-0 precommit reaches nobody.
// Round 0: X and L (q validators) prevote the proposal A, see the polka, lock on A and precommit
// it; X sees q precommits for A and commits A. L sees q − 1 precommits for A and O's nils, so it
// moves to round 1 locked on A. There p1 proposes B. Honest L refuses B (locked on A), so nothing
// is decided until the network heals and X's precommit commits A everywhere. With the lock
// ignored, L and O (n − 1 ≥ q validators) form a polka for B and commit B at the height X
// committed A at.
import type { ConsensusRules } from "../../src/consensus/rules.js";
import { ValidatorSet } from "../../src/types/validator-set.js";
import type { State as ChainState } from "../../src/wire/generated/tendermint/state/types.js";
import { SignedMsgType } from "../../src/wire/generated/tendermint/types/types.js";
import type { ValidatorSet as ProtoValidatorSet } from "../../src/wire/generated/tendermint/types/validator.js";
import type { SimKey } from "./sim-chain.js";
import type { MessageFilter } from "./sim-network.js";

export interface LockSplitRoles {
  readonly p1: number;
  readonly x: number;
  /** p1 and the other validators kept from seeing the polka. */
  readonly outsiders: ReadonlySet<number>;
}

const hex = (b: Uint8Array) => Buffer.from(b).toString("hex");

/** The validator set of `height` on a chain whose validators never change (src/state's rule). */
export function validatorsAt(genesis: ChainState, height: bigint): ProtoValidatorSet {
  let validators = genesis.validators!;
  let next = genesis.nextValidators!;
  for (let h = 1n; h < height; h++) {
    validators = next;
    next = ValidatorSet.fromProto(next).incrementProposerPriority(1).toProto();
  }
  return validators;
}

export function lockSplitRoles(
  keys: readonly SimKey[],
  validators: ProtoValidatorSet,
  rules: ConsensusRules,
): LockSplitRoles {
  const byAddress = new Map(keys.map((k, i) => [hex(k.address), i]));
  const p0 = byAddress.get(hex(rules.proposer(validators, 0).address))!;
  const p1 = byAddress.get(hex(rules.proposer(validators, 1).address))!;
  const n = keys.length;
  let quorum = 1;
  while (3 * quorum <= 2 * n) quorum++;
  const outsiders = new Set([p1]);
  for (let i = 0; outsiders.size < n - quorum; i++) if (i !== p0 && i !== p1) outsiders.add(i);
  const x = [...keys.keys()].find((i) => !outsiders.has(i))!;
  return { p1, x, outsiders };
}

export function lockSplitFilter(
  height: bigint,
  roles: LockSplitRoles,
  keys: readonly SimKey[],
  healAtMs: number,
): MessageFilter {
  const xAddress = hex(keys[roles.x]!.address);
  return (_from, to, message, nowMs) => {
    if (nowMs >= healAtMs) return false;
    const toOutsider = roles.outsiders.has(to);
    switch (message.$case) {
      case "proposal":
        return (
          toOutsider && message.proposal.proposal.height === height && message.proposal.proposal.round === 0
        );
      case "blockPart":
        return toOutsider && message.blockPart.height === height && message.blockPart.round === 0;
      case "vote": {
        const v = message.vote.vote;
        if (v === undefined || v.height !== height || v.round !== 0 || hex(v.validatorAddress) !== xAddress)
          return false;
        return v.type === SignedMsgType.SIGNED_MSG_TYPE_PRECOMMIT || toOutsider;
      }
      default:
        return false;
    }
  };
}
