// ABCI ValidatorUpdates (from InitChain or EndBlock) checked against the consensus params and
// turned into validator-set changes. Power 0 removes a validator and needs no key check.
import { addressOfPublicKey } from "../crypto/public-key-address.js";
import type { ValidatorChange } from "../types/validator-set.js";
import type { ValidatorUpdate } from "../wire/generated/tendermint/abci/types.js";
import type { ValidatorParams } from "../wire/generated/tendermint/types/params.js";
import { StateError } from "./errors.js";

const ED25519_SIZE = 32;
const SECP256K1_SIZE = 33;

function describe(u: ValidatorUpdate): string {
  const sum = u.pubKey?.sum;
  const key =
    sum === undefined
      ? "no key"
      : `${sum.$case} ${Buffer.from(sum.$case === "ed25519" ? sum.ed25519 : sum.secp256k1).toString("base64")}`;
  return `{${key}, power ${u.power}}`;
}

/**
 * v0.34's validateValidatorUpdates: no negative power; a key of a type the params allow, of the
 * right length. Throws StateError naming the update's position and content.
 */
export function validateValidatorUpdates(
  updates: readonly ValidatorUpdate[],
  params: ValidatorParams,
  height?: bigint,
): void {
  updates.forEach((u, i) => {
    const bad = (why: string) =>
      new StateError(
        "STATE_INVALID_VALIDATOR_UPDATE",
        `validator update ${i} ${describe(u)}: ${why}`,
        height,
      );
    if (u.power < 0n) throw bad("voting power can't be negative");
    if (u.power === 0n) return;
    const sum = u.pubKey?.sum;
    if (sum === undefined) throw bad("has no public key");
    if (!params.pubKeyTypes.includes(sum.$case)) {
      throw bad(
        `uses pubkey type ${sum.$case}, which is unsupported for consensus (allowed: ${params.pubKeyTypes.join(", ")})`,
      );
    }
    const size = sum.$case === "ed25519" ? sum.ed25519.length : sum.secp256k1.length;
    const want = sum.$case === "ed25519" ? ED25519_SIZE : SECP256K1_SIZE;
    if (size !== want) throw bad(`${sum.$case} key must be ${want} bytes, got ${size}`);
  });
}

/** The updates as changes for ValidatorSet.updateWithChangeSet / ValidatorSet.create. */
export function toValidatorChanges(updates: readonly ValidatorUpdate[]): ValidatorChange[] {
  return updates.map((u, i) => {
    const pubKey = u.pubKey ?? { sum: undefined };
    try {
      return { pubKey, votingPower: u.power, address: addressOfPublicKey(pubKey) };
    } catch (err) {
      throw new StateError(
        "STATE_INVALID_VALIDATOR_UPDATE",
        `validator update ${i} ${describe(u)}: ${(err as Error).message}`,
        undefined,
        { cause: err },
      );
    }
  });
}
