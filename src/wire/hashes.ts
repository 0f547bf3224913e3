// Hashes that must match Tendermint v0.34 byte for byte (reference §7.5–7.6): the header hash
// (which is the block hash), and the data, commit, validator-set, consensus-params, results and
// evidence hashes a header carries.
import { bytesEqual } from "../bytes.js";
import { sha256 } from "../crypto/hash.js";
import {
  leafHash,
  leafHashOfHashInto,
  leafHashOfPrefixed,
  merkleRoot,
  merkleRootOfLeafHashes,
  merkleRootOfLeafHashesInPieces,
  sha256HexInto,
} from "../crypto/merkle.js";
import { AdmittedTxDigests } from "./admitted-tx-digests.js";
import { WireError } from "./errors.js";
import { Timestamp } from "./generated/google/protobuf/timestamp.js";
import type { PublicKey } from "./generated/tendermint/crypto/keys.js";
import {
  DuplicateVoteEvidence,
  type Evidence,
  LightClientAttackEvidence,
} from "./generated/tendermint/types/evidence.js";
import type { ConsensusParams } from "./generated/tendermint/types/params.js";
import { HashedParams } from "./generated/tendermint/types/params.js";
import { BlockID, type Commit, CommitSig, type Header } from "./generated/tendermint/types/types.js";
import { SimpleValidator } from "./generated/tendermint/types/validator.js";
import { Consensus } from "./generated/tendermint/version/types.js";
import { encodeInt64Varint, encodeUvarint, encodeZigzagVarint } from "./varint.js";

export { blockIdIsComplete, blockIdIsZero, zeroBlockId } from "./block-id.js";

const EMPTY = new Uint8Array(0);

/** `0a len bytes`: a google BytesValue/StringValue; empty input gives an empty leaf. */
function wrapBytes(bytes: Uint8Array): Uint8Array {
  if (bytes.length === 0) return EMPTY;
  const len = encodeUvarint(bytes.length);
  const out = new Uint8Array(1 + len.length + bytes.length);
  out[0] = 0x0a;
  out.set(len, 1);
  out.set(bytes, 1 + len.length);
  return out;
}

/** `08 varint`: a google Int64Value; zero gives an empty leaf. */
function wrapInt64(value: bigint): Uint8Array {
  if (value === 0n) return EMPTY;
  const v = encodeInt64Varint(value);
  const out = new Uint8Array(1 + v.length);
  out[0] = 0x08;
  out.set(v, 1);
  return out;
}

const textEncoder = new TextEncoder();

/** The 14 leaves the header hash is the merkle root of, in order. */
export function headerHashLeaves(header: Header): Uint8Array[] {
  return [
    Consensus.encode(header.version).finish(),
    wrapBytes(textEncoder.encode(header.chainId)),
    wrapInt64(header.height),
    Timestamp.encode(header.time).finish(),
    BlockID.encode(header.lastBlockId).finish(),
    wrapBytes(header.lastCommitHash),
    wrapBytes(header.dataHash),
    wrapBytes(header.validatorsHash),
    wrapBytes(header.nextValidatorsHash),
    wrapBytes(header.consensusHash),
    wrapBytes(header.appHash),
    wrapBytes(header.lastResultsHash),
    wrapBytes(header.evidenceHash),
    wrapBytes(header.proposerAddress),
  ];
}

// Hashes of an object remembered per object. A block's header is hashed when its last part
// arrives, again by the proposal-block check and again at execution; the chain state's consensus
// params and a block's LastCommit are hashed by the check and by the next header built. Headers,
// commits and params are immutable data here (the reducers' purity rests on it), so an object's
// hash never changes; a WeakMap holds nothing alive and cannot show a collection, so an answer is
// the same with or without an entry. Callers read the bytes, never write them.
function rememberedPerObject<T extends object>(hash: (value: T) => Uint8Array): (value: T) => Uint8Array {
  const known = new WeakMap<T, Uint8Array>();
  return (value) => {
    let bytes = known.get(value);
    if (bytes === undefined) {
      bytes = hash(value);
      known.set(value, bytes);
    }
    return bytes;
  };
}

/**
 * The header hash, which is also the block hash. Empty when the header has no validators hash
 * (Tendermint returns nil there: such a header is incomplete and hashes to nothing).
 */
export const headerHash: (header: Header) => Uint8Array = rememberedPerObject((header: Header) =>
  header.validatorsHash.length === 0 ? EMPTY : merkleRoot(headerHashLeaves(header)),
);

/** sha256(tx): the tx hash of events, RPC and the mempool cache. */
export function txHash(tx: Uint8Array): Uint8Array {
  return sha256(tx);
}

/**
 * A tx's key: the upper-case hex of its sha256, by which the mempool and its cache know it, the
 * RPC answers it and the tx.hash event carries it. Every key is made here or by txKey, from the
 * hash's bytes or as the hash is made.
 */
export function txKeyOf(hash: Uint8Array): string {
  return Buffer.from(hash.buffer, hash.byteOffset, hash.byteLength).toString("hex").toUpperCase();
}

const keyScratch = new Uint8Array(32);

/** txKeyOf(sha256(tx)), hashed as hex (no array made for the hash). */
export function txKey(tx: Uint8Array): string {
  return sha256HexInto(tx, keyScratch, 0).toUpperCase();
}

/**
 * A tx's sha256, hashed once where the tx enters (the RPC's broadcast, a peer's message) and
 * carried with it through admission: its key (txKeyOf) for the pool, the cache and the RPC answer,
 * and its bytes the first half of the tx's TxDigests. Only TxSha256.of makes one (a private
 * constructor), and it keeps the very tx it hashed: TxDigests takes its bytes only for that tx
 * object, so a hash handed in with other bytes is never used for them.
 */
export class TxSha256 {
  readonly #made = true;

  private constructor(
    readonly tx: Uint8Array,
    /** sha256(tx), never to be written: the first half of a digests slot (see digestSlot). */
    readonly bytes: Uint8Array,
    /** txKeyOf(bytes). */
    readonly key: string,
    /**
     * bytesKey(tx) (admitted-tx-digests.ts) when the caller computed it before hashing (a peer's
     * tx, looked up by it in the reactor's memo): handed on to the admitted digests' memo instead
     * of a third pass over the bytes. A wrong one only files the digests where no lookup finds them.
     */
    readonly bytesKey: number | undefined,
  ) {}

  static of(tx: Uint8Array, bytesKey?: number): TxSha256 {
    const at = digestSlot();
    const into = slab;
    const hex = sha256HexInto(tx, into, at);
    return new TxSha256(tx, into.subarray(at, at + HASH_BYTES), hex.toUpperCase(), bytesKey);
  }

  /** Whether `value` was made by TxSha256.of for this very `tx` object (not one of the same shape). */
  static madeFor(value: unknown, tx: Uint8Array): value is TxSha256 {
    return typeof value === "object" && value !== null && #made in value && (value as TxSha256).tx === tx;
  }
}

// A block's tx hashes and data hash, remembered per txs array (a block's data, never changed once
// built): the data hash computes them when the block is made, validating the same block (our own
// proposal) asks again and gets the remembered root instead of a second merkle tree (two sha256
// per tx), and the tx index, the mempool's update and the event bus read the tx hashes instead
// of hashing every tx again. An entry made ahead of the block (dataHashAhead) keeps the txs it was
// made from and answers only while the array still holds those very txs.
interface RememberedTxs {
  readonly hashes: readonly Uint8Array[];
  readonly root: Uint8Array;
  /**
   * Each tx's key as the mempool holds it (TxDigests.key), where its digests carried one: the very
   * string the pool and the cache are keyed by, so the mempool's update after the block finds its
   * entries by that string (no hex made per committed tx, and each Map lookup compares a string
   * with itself instead of 64 characters with a copy's).
   */
  readonly keys?: readonly (string | undefined)[];
  /** The txs hashed, when the entry was made before the array reached its block. */
  readonly txs?: readonly Uint8Array[];
}
const blockTxHashes = new WeakMap<readonly Uint8Array[], RememberedTxs>();

function rememberedFor(txs: readonly Uint8Array[]): RememberedTxs | undefined {
  const known = blockTxHashes.get(txs);
  if (known?.txs === undefined) return known;
  const hashed = known.txs;
  let same = hashed.length === txs.length;
  for (let i = 0; same && i < txs.length; i++) same = hashed[i] === txs[i];
  if (same) return known;
  blockTxHashes.delete(txs);
  return undefined;
}

/** The txs' keys dataHashAhead found in their digests for this very array (see RememberedTxs.keys). */
export function rememberedTxKeys(txs: readonly Uint8Array[]): readonly (string | undefined)[] | undefined {
  return rememberedFor(txs)?.keys;
}

/** The tx hashes dataHash computed for this very array, if it did. */
export function rememberedTxHashes(txs: readonly Uint8Array[]): readonly Uint8Array[] | undefined {
  return rememberedFor(txs)?.hashes;
}

/**
 * Merkle root over the tx hashes (not the raw txs). A fresh copy each call (callers own it). A tx
 * our mempool admitted lately is not hashed again: its digests are found by its exact bytes
 * (admitted-tx-digests.ts), which is what makes another validator's proposal cheap to check.
 */
export function dataHash(txs: readonly Uint8Array[]): Uint8Array {
  let remembered = rememberedFor(txs);
  if (remembered === undefined) {
    const n = txs.length;
    const hashes: Uint8Array[] = new Array(n);
    const leaves: Uint8Array[] = new Array(n);
    for (let i = 0; i < n; i++) putAdmittedDigests(hashes, leaves, i, txs[i]!);
    remembered = { hashes, root: merkleRootOfLeafHashes(leaves) };
    blockTxHashes.set(txs, remembered);
  }
  return remembered.root.slice();
}

/**
 * Puts tx `i`'s sha256 and merkle leaf into `hashes` and `leaves` as dataHash takes them: from the
 * admitted txs' memo for equal bytes, else hashed now.
 */
export function putAdmittedDigests(
  hashes: Uint8Array[],
  leaves: Uint8Array[],
  i: number,
  tx: Uint8Array,
): void {
  putDigests(hashes, leaves, i, tx, admittedDigests.of(tx));
}

/**
 * Remembers for this txs array a data hash made elsewhere from the very same txs' bytes (a peer's
 * block hashed as its parts arrived: part-set-data-hash.ts), so dataHash answers it without a
 * second tree. The caller vouches that hashes[i] is sha256(txs[i]) and `root` their data hash.
 */
export function rememberDataHashOf(
  txs: readonly Uint8Array[],
  hashes: readonly Uint8Array[],
  root: Uint8Array,
): void {
  blockTxHashes.set(txs, { hashes, root });
}

/**
 * A tx's sha256 and its data-hash merkle leaf, sha256(0x00 ‖ sha256(tx)), made from the tx's bytes
 * when it enters the mempool, so a proposal of tens of thousands of txs need not hash them all at
 * once. Only TxDigests.of makes one (a private constructor), and it keeps the very tx it hashed: a
 * digest is used for a block's tx only when that tx is this object.
 */
export class TxDigests {
  readonly #made = true;
  /** sha256(tx) then the leaf: 64 bytes of a slab shared with the digests made around it. */
  readonly #bytes: Uint8Array;

  private constructor(
    readonly tx: Uint8Array,
    bytes: Uint8Array,
    /**
     * txKeyOf(hash), the very string the tx was keyed by where it entered (TxSha256.key), when the
     * digests were made from that TxSha256; undefined otherwise (no key is made for it here).
     */
    readonly key: string | undefined,
  ) {
    this.#bytes = bytes;
  }

  /**
   * From the tx's bytes, or from `known` when TxSha256.of made it for this very tx object (the
   * RPC's hash of a broadcast tx): each admitted tx's own bytes are hashed once. The leaf is
   * written into the slot `known` was hashed into, beside its hash.
   */
  static of(tx: Uint8Array, known?: TxSha256): TxDigests {
    if (known !== undefined && TxSha256.madeFor(known, tx)) {
      const hash = known.bytes;
      const bytes = new Uint8Array(hash.buffer, hash.byteOffset, 2 * HASH_BYTES);
      leafHashOfHashInto(hash, bytes, HASH_BYTES);
      return TxDigests.#kept(new TxDigests(tx, bytes, known.key), known.bytesKey);
    }
    const at = digestSlot();
    const bytes = slab.subarray(at, at + 2 * HASH_BYTES);
    sha256HexInto(tx, bytes, 0);
    leafHashOfHashInto(bytes.subarray(0, HASH_BYTES), bytes, HASH_BYTES);
    return TxDigests.#kept(new TxDigests(tx, bytes, undefined), undefined);
  }

  /** Every admitted tx's digests, found again by dataHash for equal bytes (a memo, never an answer). */
  static #kept(digests: TxDigests, bytesKey: number | undefined): TxDigests {
    admittedDigests.remember(digests, bytesKey);
    return digests;
  }

  /** sha256(tx): a view of the digests' bytes (never to be written). */
  get hash(): Uint8Array {
    return this.#bytes.subarray(0, HASH_BYTES);
  }

  /** sha256(0x00 ‖ sha256(tx)): a view of the digests' bytes (never to be written). */
  get leaf(): Uint8Array {
    return this.#bytes.subarray(HASH_BYTES, 2 * HASH_BYTES);
  }

  /** Whether `value` was made by TxDigests.of (not an object of the same shape). */
  static made(value: unknown): value is TxDigests {
    return typeof value === "object" && value !== null && #made in value;
  }
}

const HASH_BYTES = 32;
/** The digests of the txs admitted lately, by their bytes: one for the process, as the slabs. */
const admittedDigests = new AdmittedTxDigests<TxDigests>();

/**
 * Whether admitted txs' digests are kept for other validators' proposals (admitted-tx-digests.ts):
 * the node says so from its validator set (state/other-proposers.ts). Off changes what a data
 * hash costs for a peer's block, never its answer.
 */
export function keepAdmittedTxDigests(on: boolean): void {
  admittedDigests.keep(on);
}

/** How many admitted txs' digests are kept now (what the node's switch is tested by). */
export function admittedTxDigestsKept(): number {
  return admittedDigests.size;
}
/** Digests per slab: a pool entry keeps one view of a slab, not two buffers of its own. */
const SLAB_DIGESTS = 1024;
let slab = new Uint8Array(0);
let slabUsed = 0;

// Each digest's two hashes live in a 64-byte slot of a shared slab rather than two buffers of
// their own: a pool entry keeps them from its admission to its block (a second or more, through
// young-generation collections into the old one), and one ArrayBuffer each cost the collector
// more than the hashing. Txs admitted together mostly leave together, so a slab is freed soon
// after its last entry. A TxSha256 takes a slot (its hash the first half) and the TxDigests made
// from it writes the leaf into the second half; a tx refused before its digests leaves its slot
// half used.
/** The offset in `slab` of a fresh 64-byte slot (read `slab` right after: it may be a new one). */
function digestSlot(): number {
  if (slabUsed === slab.length) {
    slab = new Uint8Array(SLAB_DIGESTS * 2 * HASH_BYTES);
    slabUsed = 0;
  }
  const at = slabUsed;
  slabUsed += 2 * HASH_BYTES;
  return at;
}

/**
 * Puts tx `i`'s sha256 and merkle leaf into `hashes` and `leaves`: `known`'s, which the caller
 * vouches were made from these very bytes, or hashed now (then answers true).
 */
function putDigests(
  hashes: Uint8Array[],
  leaves: Uint8Array[],
  i: number,
  tx: Uint8Array,
  known: TxDigests | undefined,
): boolean {
  if (known !== undefined) {
    hashes[i] = known.hash;
    leaves[i] = known.leaf;
    return false;
  }
  const hash = txHash(tx);
  hashes[i] = hash;
  leaves[i] = leafHash(hash);
  return true;
}

/**
 * Puts tx `i`'s sha256 and leaf into `hashes` and `leaves` from `known` when it was made for this
 * very tx object (TxDigests.of), else hashed now; answers its key as dataHashAhead keeps it (the
 * pool's own string, or undefined). For types/data-hash-prefix.ts, which extends a tree made earlier.
 */
export function putTxDigests(
  hashes: Uint8Array[],
  leaves: Uint8Array[],
  i: number,
  tx: Uint8Array,
  known: TxDigests | undefined,
): string | undefined {
  const usable = known !== undefined && known.tx === tx && TxDigests.made(known);
  putDigests(hashes, leaves, i, tx, usable ? known : undefined);
  return usable ? known.key : undefined;
}

/**
 * Remembers for this txs array a data hash made ahead from these very txs (types/data-hash-prefix.ts), as
 * dataHashAhead does: the caller vouches that hashes[i] is sha256(txs[i]) and `root` their data
 * hash; the entry answers only while the array still holds these txs.
 */
export function rememberDataHashAhead(
  txs: readonly Uint8Array[],
  hashes: readonly Uint8Array[],
  root: Uint8Array,
  keys: readonly (string | undefined)[],
): void {
  blockTxHashes.set(txs, { hashes, root, txs: txs.slice(), keys });
}

/** How many leaves dataHashAhead hashes between two pauses. */
export const AHEAD_PIECE = 2048;

/**
 * The data hash of `txs`, made before the block is built and remembered for this array, so that
 * dataHash (inside the consensus reducer's fold) finds it done: tx and leaf hashes from `digests`
 * where one belongs to the tx at its index (hashed now otherwise), the tree in pieces of
 * AHEAD_PIECE leaves with `pause()` awaited between them, so the thread serves others meanwhile.
 * The root is the one dataHash computes, byte for byte; the caller must not change `txs` after.
 */
export async function dataHashAhead(
  txs: readonly Uint8Array[],
  digests: readonly (TxDigests | undefined)[],
  pause: () => Promise<void>,
): Promise<void> {
  const n = txs.length;
  const hashes: Uint8Array[] = new Array(n);
  const leaves: Uint8Array[] = new Array(n);
  const keys: (string | undefined)[] = new Array(n);
  for (let i = 0; i < n; i++) {
    const tx = txs[i]!;
    const known = digests[i];
    const usable = known !== undefined && known.tx === tx && TxDigests.made(known);
    keys[i] = usable ? known.key : undefined;
    const hashedNow = putDigests(hashes, leaves, i, tx, usable ? known : undefined);
    if (hashedNow && (i + 1) % AHEAD_PIECE === 0) await pause();
  }
  const root = await merkleRootOfLeafHashesInPieces(leaves, pause, AHEAD_PIECE);
  blockTxHashes.set(txs, { hashes, root, txs: txs.slice(), keys });
}

/**
 * Merkle root over the protobuf of each CommitSig, so the empty commit of the initial height
 * hashes to the empty tree. A missing commit has no hash (empty bytes), as Go's nil Commit.Hash().
 */
export function commitHash(commit: Commit | undefined): Uint8Array {
  return commit === undefined ? EMPTY : rememberedCommitHash(commit);
}
const rememberedCommitHash = rememberedPerObject((commit: Commit) =>
  merkleRoot(commit.signatures.map((sig) => CommitSig.encode(sig).finish())),
);

// Each validator's merkle leaf, remembered per PublicKey object. A chain state's sets are new
// objects every height (proposer priorities move), but their members keep their PublicKey object
// (validator-set.ts copies members field by field), and the set hash covers only the key and the
// power: the proposer hashed both sets of every block it built, and each receiver's check hashed
// them again, each time one protobuf encoding and one leaf hash per validator. An entry keeps its
// own copy of the key bytes and the power, and answers only when both still match (a key object
// changed in place is encoded again), so the leaf is always the one encoding would give. A
// WeakMap: nothing is kept alive by it, and a set of thousands costs one entry per member.
interface ValidatorLeaf {
  readonly keyCase: string;
  readonly keyBytes: Uint8Array;
  readonly votingPower: bigint;
  readonly leaf: Uint8Array;
}
const validatorLeaves = new WeakMap<PublicKey, ValidatorLeaf>();

function keyBytesOf(pubKey: PublicKey): Uint8Array | undefined {
  const sum = pubKey.sum;
  if (sum?.$case === "ed25519") return sum.ed25519;
  if (sum?.$case === "secp256k1") return sum.secp256k1;
  return undefined;
}

function validatorLeaf(v: { pubKey: PublicKey; votingPower: bigint }): Uint8Array {
  const pubKey = v.pubKey;
  const keyBytes = typeof pubKey === "object" && pubKey !== null ? keyBytesOf(pubKey) : undefined;
  if (keyBytes === undefined)
    return leafHash(SimpleValidator.encode({ pubKey, votingPower: v.votingPower }).finish());
  const known = validatorLeaves.get(pubKey);
  if (
    known !== undefined &&
    known.votingPower === v.votingPower &&
    known.keyCase === pubKey.sum!.$case &&
    bytesEqual(known.keyBytes, keyBytes)
  )
    return known.leaf;
  const leaf = leafHash(SimpleValidator.encode({ pubKey, votingPower: v.votingPower }).finish());
  validatorLeaves.set(pubKey, {
    keyCase: pubKey.sum!.$case,
    keyBytes: keyBytes.slice(),
    votingPower: v.votingPower,
    leaf,
  });
  return leaf;
}

/** Merkle root over SimpleValidator {pub_key, voting_power}, in validator-set order. */
export function validatorSetHash(
  validators: readonly { pubKey: PublicKey; votingPower: bigint }[],
): Uint8Array {
  // A fresh root each call (callers own it): leaves may be shared, the inner nodes are new.
  if (validators.length === 1) return validatorLeaf(validators[0]!).slice();
  return merkleRootOfLeafHashes(validators.map(validatorLeaf));
}

/** Plain sha256 of HashedParams {block max_bytes, block max_gas}; the rest is not hashed. */
export const consensusParamsHash: (params: ConsensusParams) => Uint8Array = rememberedPerObject(
  (params: ConsensusParams) =>
    sha256(
      HashedParams.encode({
        blockMaxBytes: params.block.maxBytes,
        blockMaxGas: params.block.maxGas,
      }).finish(),
    ),
);

/** The deterministic part of a DeliverTx result that LastResultsHash covers. */
export interface DeterministicTxResult {
  code: number;
  data: Uint8Array;
  gasWanted: bigint;
  gasUsed: bigint;
}

/** Reused encoding buffer of lastResultsHash: 0x00 (the leaf prefix) then the result's protobuf. */
let resultScratch = new Uint8Array(256);
/** Encodings up to this size are remembered within one call, to reuse their leaf hash. */
const REMEMBERED_ENCODING_BYTES = 64;
/** Distinct results seen with no repeat among them after which a block stops remembering. */
const GIVE_UP_AFTER_MISSES = 256;

function writeVarint32(buf: Uint8Array, pos: number, value: number): number {
  let v = value >>> 0;
  while (v > 0x7f) {
    buf[pos++] = (v & 0x7f) | 0x80;
    v >>>= 7;
  }
  buf[pos++] = v;
  return pos;
}

/** int64 as protobuf writes it: the two's complement as an unsigned varint (10 bytes if < 0). */
function writeVarint64(buf: Uint8Array, pos: number, value: bigint): number {
  if (value >= 0n && value <= 0xffffffffn) return writeVarint32(buf, pos, Number(value));
  let v = BigInt.asUintN(64, value);
  while (v > 0x7fn) {
    buf[pos++] = Number(v & 0x7fn) | 0x80;
    v >>= 7n;
  }
  buf[pos++] = Number(v);
  return pos;
}

/**
 * 0x00 ‖ protobuf of ResponseDeliverTx {code(1), data(2), gas_wanted(5), gas_used(6)}, zero
 * fields omitted as proto3 does, written into the reused scratch buffer. Returns its length.
 */
function encodePrefixedResult(r: DeterministicTxResult): number {
  const need = 1 + 6 + 6 + r.data.length + 22;
  if (resultScratch.length < need) resultScratch = new Uint8Array(Math.max(need, resultScratch.length * 2));
  const buf = resultScratch;
  buf[0] = 0;
  let pos = 1;
  if (r.code !== 0) {
    buf[pos++] = 0x08;
    pos = writeVarint32(buf, pos, r.code);
  }
  if (r.data.length > 0) {
    buf[pos++] = 0x12;
    pos = writeVarint32(buf, pos, r.data.length);
    buf.set(r.data, pos);
    pos += r.data.length;
  }
  if (r.gasWanted !== 0n) {
    buf[pos++] = 0x28;
    pos = writeVarint64(buf, pos, r.gasWanted);
  }
  if (r.gasUsed !== 0n) {
    buf[pos++] = 0x30;
    pos = writeVarint64(buf, pos, r.gasUsed);
  }
  return pos;
}

/**
 * Merkle root over each result reduced to code, data, gas_wanted and gas_used (Go's
 * ABCIResults.Hash over deterministic ResponseDeliverTx). Each result is encoded directly into
 * one reused buffer, and byte-identical results share one leaf hash (and so, in runs, their
 * subtrees): a block of 10,000 identical kvstore results hashes a few dozen times, not 20,000.
 */
export function lastResultsHash(deliverTxs: readonly DeterministicTxResult[]): Uint8Array {
  const n = deliverTxs.length;
  if (n === 0) return merkleRootOfLeafHashes([]);
  const leaves: Uint8Array[] = new Array(n);
  let previous: DeterministicTxResult | undefined;
  let previousLeaf: Uint8Array | undefined;
  let remembered: Map<string, Uint8Array> | undefined;
  // Remembering costs a string and a map entry per result: stop when repeats never come back.
  let rememberHits = 0;
  let rememberMisses = 0;
  for (let i = 0; i < n; i++) {
    const r = deliverTxs[i]!;
    if (
      previous !== undefined &&
      (r === previous ||
        (r.code === previous.code &&
          r.gasWanted === previous.gasWanted &&
          r.gasUsed === previous.gasUsed &&
          bytesEqual(r.data, previous.data)))
    ) {
      leaves[i] = previousLeaf!;
      continue;
    }
    const length = encodePrefixedResult(r);
    let leaf: Uint8Array | undefined;
    if (length <= REMEMBERED_ENCODING_BYTES && (rememberHits > 0 || rememberMisses < GIVE_UP_AFTER_MISSES)) {
      remembered ??= new Map();
      const key = Buffer.from(resultScratch.buffer, 0, length).toString("latin1");
      leaf = remembered.get(key);
      if (leaf === undefined) {
        rememberMisses++;
        leaf = leafHashOfPrefixed(resultScratch.subarray(0, length));
        remembered.set(key, leaf);
      } else {
        rememberHits++;
      }
    } else {
      leaf = leafHashOfPrefixed(resultScratch.subarray(0, length));
    }
    leaves[i] = leaf;
    previous = r;
    previousLeaf = leaf;
  }
  return merkleRootOfLeafHashes(leaves);
}

/** Protobuf of the concrete evidence message (not the Evidence oneof): Go's evidence.Bytes(). */
export function evidenceBytes(evidence: Evidence): Uint8Array {
  const sum = evidence.sum;
  if (sum?.$case === "duplicateVoteEvidence")
    return DuplicateVoteEvidence.encode(sum.duplicateVoteEvidence).finish();
  if (sum?.$case === "lightClientAttackEvidence")
    return LightClientAttackEvidence.encode(sum.lightClientAttackEvidence).finish();
  throw new WireError("WIRE_UNKNOWN_EVIDENCE", "evidence has no duplicate_vote or light_client_attack value");
}

/** Merkle root over evidenceBytes of each item; no evidence gives the empty-tree hash. */
export function evidenceHash(evidenceList: readonly Evidence[]): Uint8Array {
  return merkleRoot(evidenceList.map(evidenceBytes));
}

/** DuplicateVoteEvidence.Hash(): sha256 of its protobuf. */
export function duplicateVoteEvidenceHash(evidence: DuplicateVoteEvidence): Uint8Array {
  return sha256(DuplicateVoteEvidence.encode(evidence).finish());
}

/**
 * LightClientAttackEvidence.Hash(), reproducing v0.34's quirk: sha256 of the conflicting header
 * hash's first 31 bytes, a zero byte, then the zigzag varint of the common height.
 */
export function lightClientAttackEvidenceHash(evidence: LightClientAttackEvidence): Uint8Array {
  const header = evidence.conflictingBlock?.signedHeader?.header;
  const conflicting = header === undefined ? EMPTY : headerHash(header);
  const height = encodeZigzagVarint(evidence.commonHeight);
  const buf = new Uint8Array(32 + height.length);
  buf.set(conflicting.subarray(0, 31), 0);
  buf.set(height, 32);
  return sha256(buf);
}

/** The hash an evidence item is known by (pool, broadcast_evidence, events). */
export function evidenceItemHash(evidence: Evidence): Uint8Array {
  const sum = evidence.sum;
  if (sum?.$case === "duplicateVoteEvidence") return duplicateVoteEvidenceHash(sum.duplicateVoteEvidence);
  if (sum?.$case === "lightClientAttackEvidence")
    return lightClientAttackEvidenceHash(sum.lightClientAttackEvidence);
  throw new WireError("WIRE_UNKNOWN_EVIDENCE", "evidence has no duplicate_vote or light_client_attack value");
}
