// A scripted fault that puts the lock rule to work (it is what "ignore the lock" breaks). At one
// height, 4 equal validators; p1 = the proposer of round 1, X = another validator, L1 and L2 the
// other two. Until the heal time:
//   - p1 never gets round 0's proposal and parts, nor X's round-0 prevote: it prevotes nil and sees
//     no polka, so it precommits nil and later proposes a fresh block in round 1;
//   - X's round-0 precommit reaches nobody.
// Round 0: X, L1, L2 prevote the proposal A (a polka), lock on it and precommit it; X sees three
// precommits for A and commits A. L1 and L2 see only two precommits for A and p1's nil, so they
// move to round 1, locked on A. There p1 proposes B. Honest L1 and L2 refuse B (locked on A), so
// nothing happens until the network heals and X's precommit commits A everywhere. With the lock
// ignored, L1, L2 and p1 form a polka for B and commit B at the height X committed A at.

import type { ConsensusRules } from "../../src/consensus/rules.js";
import { SignedMsgType } from "../../src/wire/generated/tendermint/types/types.js";
import type { ValidatorSet } from "../../src/wire/generated/tendermint/types/validator.js";
import type { SimKey } from "./sim-chain.js";
import type { MessageFilter } from "./sim-network.js";

export interface LockSplitRoles {
  readonly p1: number;
  readonly x: number;
}

const hex = (b: Uint8Array) => Buffer.from(b).toString("hex");

export function lockSplitRoles(
  keys: readonly SimKey[],
  validators: ValidatorSet,
  rules: ConsensusRules,
): LockSplitRoles {
  const byAddress = new Map(keys.map((k, i) => [hex(k.address), i]));
  const p1 = byAddress.get(hex(rules.proposer(validators, 1).address))!;
  const x = [...keys.keys()].find((i) => i !== p1)!;
  return { p1, x };
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
    switch (message.type) {
      case "ProposalReceived":
        return to === roles.p1 && message.proposal.height === height && message.proposal.round === 0;
      case "BlockPartReceived":
        return to === roles.p1 && message.height === height && message.round === 0;
      case "VoteReceived": {
        const v = message.vote;
        if (v.height !== height || v.round !== 0 || hex(v.validatorAddress) !== xAddress) return false;
        if (v.type === SignedMsgType.SIGNED_MSG_TYPE_PRECOMMIT) return true;
        return to === roles.p1;
      }
    }
  };
}
