// LightClientAttackEvidence verified, rule by rule (v0.34's VerifyLightClientAttack and the pool's
// checks around it): real headers, real ed25519 commits. A genuine equivocation and a genuine
// lunatic attack pass; each forgery is refused with the reason naming the rule it breaks.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { keyPairFromSeed, signEd25519 } from "../../src/crypto/ed25519-keys.js";
import { verifyEd25519 } from "../../src/crypto/ed25519-verify.js";
import { addressOf, sha256 } from "../../src/crypto/hash.js";
import {
  checkEvidence,
  EMPTY_EVIDENCE_POOL,
  type EvidenceHistory,
  evidenceHistoryHeights,
  lightClientAttackProblem,
} from "../../src/evidence/index.js";
import { makeBlock } from "../../src/types/block.js";
import { absentCommitSig } from "../../src/types/commit.js";
import { commitVoteSignBytes } from "../../src/types/commit-verification.js";
import { defaultConsensusParams } from "../../src/types/consensus-params.js";
import { wrapLightClientAttackEvidence } from "../../src/types/evidence.js";
import type { Timestamp } from "../../src/wire/generated/google/protobuf/timestamp.js";
import type { State as ChainState } from "../../src/wire/generated/tendermint/state/types.js";
import type { LightClientAttackEvidence } from "../../src/wire/generated/tendermint/types/evidence.js";
import {
  BlockIDFlag,
  type Commit,
  type Header,
  type SignedHeader,
} from "../../src/wire/generated/tendermint/types/types.js";
import type { Validator } from "../../src/wire/generated/tendermint/types/validator.js";
import { consensusParamsHash, headerHash, validatorSetHash } from "../../src/wire/hashes.js";

const CHAIN = "lca-chain";
const keys = [1, 2, 3, 4].map((i) => keyPairFromSeed(new Uint8Array(32).fill(i)));
const member = (i: number): Validator => ({
  address: addressOf(keys[i]!.publicKey),
  pubKey: { sum: { $case: "ed25519", ed25519: keys[i]!.publicKey } },
  votingPower: 10n,
  proposerPriority: 0n,
});
/** Our validator set (all four, power 10 each), in address order as a set keeps it. */
const ours = [0, 1, 2, 3].map(member).sort((a, b) => Buffer.compare(a.address, b.address));
const time = (s: number): Timestamp => ({ seconds: 1_700_000_000n + BigInt(s), nanos: 0 });

function header(height: bigint, fields: Partial<Header> = {}, vals: readonly Validator[] = ours): Header {
  const base = makeBlock({
    chainId: CHAIN,
    height,
    time: time(Number(height)),
    lastBlockId: {
      hash: sha256(Uint8Array.of(Number(height))),
      partSetHeader: { total: 1, hash: sha256(Uint8Array.of(9)) },
    },
    validatorsHash: validatorSetHash(vals),
    nextValidatorsHash: validatorSetHash(vals),
    consensusHash: consensusParamsHash(defaultConsensusParams()),
    appHash: sha256(Uint8Array.of(1)),
    lastResultsHash: sha256(new Uint8Array(0)),
    proposerAddress: vals[0]!.address,
    txs: [],
    evidence: [],
    lastCommit: {
      height: 0n,
      round: 0,
      blockId: { hash: new Uint8Array(0), partSetHeader: { total: 0, hash: new Uint8Array(0) } },
      signatures: [],
    },
  }).header;
  return { ...base, ...fields };
}

/** A commit of `h` by the members of `vals` listed in `signers` (others absent), in `round`. */
function commitOf(h: Header, vals: readonly Validator[], signers: readonly Validator[], round = 0): Commit {
  const commit: Commit = {
    height: h.height,
    round,
    blockId: { hash: headerHash(h), partSetHeader: { total: 1, hash: sha256(Uint8Array.of(7)) } },
    signatures: vals.map(() => absentCommitSig()),
  };
  vals.forEach((v, i) => {
    if (!signers.some((s) => Buffer.from(s.address).equals(Buffer.from(v.address)))) return;
    commit.signatures[i] = {
      blockIdFlag: BlockIDFlag.BLOCK_ID_FLAG_COMMIT,
      validatorAddress: v.address,
      timestamp: h.time,
      signature: new Uint8Array(0),
    };
    const key = keys.find((k) => Buffer.from(addressOf(k.publicKey)).equals(Buffer.from(v.address)))!;
    commit.signatures[i] = {
      ...commit.signatures[i]!,
      signature: signEd25519(key.privateKey, commitVoteSignBytes(CHAIN, commit, i)),
    };
  });
  return commit;
}

/** Our chain: heights 1..3, every block signed by all four. */
const ourHeaders = new Map<bigint, SignedHeader>(
  [1n, 2n, 3n].map((h) => {
    const hd = header(h);
    return [h, { header: hd, commit: commitOf(hd, ours, ours) }];
  }),
);
const history: EvidenceHistory = {
  blockTimeAt: (h) => ourHeaders.get(h)?.header?.time,
  validatorsAt: (h) => (ourHeaders.has(h) ? ours : undefined),
  signedHeaderAt: (h) => ourHeaders.get(h),
};
const chain: ChainState = {
  version: { consensus: { block: 11n, app: 0n }, software: "" },
  chainId: CHAIN,
  initialHeight: 1n,
  lastBlockHeight: 3n,
  lastBlockId: {
    hash: headerHash(ourHeaders.get(3n)!.header!),
    partSetHeader: { total: 1, hash: sha256(Uint8Array.of(7)) },
  },
  lastBlockTime: time(3),
  nextValidators: { validators: ours, proposer: ours[0], totalVotingPower: 40n },
  validators: { validators: ours, proposer: ours[0], totalVotingPower: 40n },
  lastValidators: { validators: ours, proposer: ours[0], totalVotingPower: 40n },
  lastHeightValidatorsChanged: 1n,
  consensusParams: defaultConsensusParams(),
  lastHeightConsensusParamsChanged: 1n,
  lastResultsHash: new Uint8Array(0),
  appHash: new Uint8Array(0),
};

const byPowerThenAddress = (vs: Validator[]) => [...vs].sort((a, b) => Buffer.compare(a.address, b.address));

/** Equivocation at height 2: another block of height 2 (other data) signed by three of us. */
function equivocation(
  over: Partial<LightClientAttackEvidence> = {},
  signers = ours.slice(0, 3),
): LightClientAttackEvidence {
  const h = header(2n, { dataHash: sha256(Uint8Array.of(0xee)) });
  return {
    conflictingBlock: {
      signedHeader: { header: h, commit: commitOf(h, ours, signers) },
      validatorSet: { validators: ours, proposer: ours[0], totalVotingPower: 40n },
    },
    commonHeight: 2n,
    byzantineValidators: byPowerThenAddress(signers),
    totalVotingPower: 40n,
    timestamp: time(2),
    ...over,
  };
}

/** Lunatic attack from common height 1: a block of height 3 with a made-up app hash and a set of two. */
function lunatic(
  over: Partial<LightClientAttackEvidence> = {},
  signers = ours.slice(0, 2),
  h3: Partial<Header> = {},
) {
  const fake = ours.slice(0, 2);
  const h = header(3n, { appHash: sha256(Uint8Array.of(0xbad)), ...h3 }, fake);
  return {
    conflictingBlock: {
      signedHeader: { header: h, commit: commitOf(h, fake, signers) },
      validatorSet: { validators: fake, proposer: fake[0], totalVotingPower: 20n },
    },
    commonHeight: 1n,
    byzantineValidators: byPowerThenAddress(signers),
    totalVotingPower: 40n,
    timestamp: time(1),
    ...over,
  } satisfies LightClientAttackEvidence;
}

const check = (e: LightClientAttackEvidence) =>
  checkEvidence(EMPTY_EVIDENCE_POOL, wrapLightClientAttackEvidence(e), chain, history, verifyEd25519);

describe("LightClientAttackEvidence verification", () => {
  it("accepts a genuine equivocation and a genuine lunatic attack", () => {
    assert.equal(lightClientAttackProblem(equivocation(), chain, history), undefined);
    assert.equal(lightClientAttackProblem(lunatic(), chain, history), undefined);
    assert.equal(check(equivocation()).kind, "valid");
    assert.equal(check(lunatic()).kind, "valid");
  });

  it("reads the common, conflicting and latest heights from the stores", () => {
    assert.deepEqual(evidenceHistoryHeights(wrapLightClientAttackEvidence(lunatic()), chain), [1n, 3n, 3n]);
  });

  it("refuses a common height we hold no header for", () => {
    const none: EvidenceHistory = {
      ...history,
      signedHeaderAt: (h) => (h === 2n ? undefined : ourHeaders.get(h)),
    };
    assert.match(
      lightClientAttackProblem(equivocation(), chain, none)!,
      /no signed header stored at the common height 2/,
    );
  });

  it("refuses a timestamp other than our block time at the common height", () => {
    const r = check(equivocation({ timestamp: time(99) }));
    assert.equal(r.kind, "invalid");
    assert.match(
      (r as { reason: string }).reason,
      /evidence time differs from the time of the block at height 2/,
    );
  });

  it("at the same height, refuses a conflicting header not derived from the same state", () => {
    const h = header(2n, { appHash: sha256(Uint8Array.of(0x42)) });
    const e = equivocation({
      conflictingBlock: {
        signedHeader: { header: h, commit: commitOf(h, ours, ours.slice(0, 3)) },
        validatorSet: { validators: ours, proposer: ours[0], totalVotingPower: 40n },
      },
    });
    assert.match(
      lightClientAttackProblem(e, chain, history)!,
      /expected the conflicting block to be correctly derived/,
    );
  });

  it("not at the same height, refuses a commit with 1/3 or less of the common set's power", () => {
    const e = lunatic({ byzantineValidators: [ours[0]!] }, ours.slice(0, 1));
    assert.match(
      lightClientAttackProblem(e, chain, history)!,
      /skipping verification of conflicting block failed: .*insufficient voting power: got 10, needed more than 13/,
    );
  });

  it("refuses a conflicting commit without 2/3+ of the conflicting set", () => {
    const e = equivocation({}, ours.slice(0, 2));
    assert.match(
      lightClientAttackProblem(e, chain, history)!,
      /invalid commit from conflicting block: .*insufficient voting power: got 20, needed more than 26/,
    );
  });

  it("refuses a forged signature in the conflicting commit", () => {
    const e = equivocation();
    const commit = e.conflictingBlock!.signedHeader!.commit!;
    const sigs = commit.signatures.map((s, i) =>
      i === 0 ? { ...s, signature: new Uint8Array(64).fill(1) } : s,
    );
    const forged = {
      ...e,
      conflictingBlock: {
        ...e.conflictingBlock!,
        signedHeader: { ...e.conflictingBlock!.signedHeader!, commit: { ...commit, signatures: sigs } },
      },
    };
    assert.match(
      lightClientAttackProblem(forged, chain, history)!,
      /invalid commit from conflicting block: .*wrong signature \(#0\)/,
    );
  });

  it("refuses a total voting power other than the common set's", () => {
    assert.match(
      lightClientAttackProblem(equivocation({ totalVotingPower: 41n }), chain, history)!,
      /total voting power from the evidence and our validator set does not match \(41 != 40\)/,
    );
  });

  it("refuses a conflicting header that is ours (same hash: no conflict)", () => {
    const ourTwo = ourHeaders.get(2n)!;
    const e = equivocation({
      conflictingBlock: {
        signedHeader: ourTwo,
        validatorSet: { validators: ours, proposer: ours[0], totalVotingPower: 40n },
      },
      byzantineValidators: byPowerThenAddress(ours),
    });
    assert.match(
      lightClientAttackProblem(e, chain, history)!,
      /trusted header hash matches the evidence's conflicting header hash/,
    );
  });

  it("refuses a forward attack dated after our latest block", () => {
    const fake = ours.slice(0, 2);
    const h = header(5n, { appHash: sha256(Uint8Array.of(0xbad)), time: time(50) }, fake);
    const e = lunatic({
      conflictingBlock: {
        signedHeader: { header: h, commit: commitOf(h, fake, fake) },
        validatorSet: { validators: fake, proposer: fake[0], totalVotingPower: 20n },
      },
    });
    assert.match(
      lightClientAttackProblem(e, chain, history)!,
      /latest block time \(.*\) is before conflicting block time/,
    );
  });

  it("refuses ByzantineValidators other than the validators that signed both blocks", () => {
    const [a, b, c] = byPowerThenAddress(ours.slice(0, 3));
    assert.match(
      lightClientAttackProblem(equivocation({ byzantineValidators: [a!, b!] }), chain, history)!,
      /expected 3 byzantine validators from evidence but got 2/,
    );
    const outsider = byPowerThenAddress(ours).find((v) => ![a, b, c].includes(v))!;
    assert.match(
      lightClientAttackProblem(equivocation({ byzantineValidators: [a!, b!, outsider] }), chain, history)!,
      /different byzantine validator address to the one we were expecting/,
    );
    assert.match(
      lightClientAttackProblem(
        equivocation({ byzantineValidators: [a!, b!, { ...c!, votingPower: 11n }] }),
        chain,
        history,
      )!,
      /different power to the one we were expecting: expected 10, got 11/,
    );
    // a lunatic attack names the common set's members that signed the conflicting block
    assert.match(
      lightClientAttackProblem(lunatic({ byzantineValidators: [ours[0]!] }), chain, history)!,
      /expected 2 byzantine validators from evidence but got 1/,
    );
  });
});
