// The kvstore example app (Tendermint's abci/example/kvstore), persisted in LevelDB so a restart
// resumes where it stopped. With `validatorTxs` it also takes persistent_kvstore's `val:` txs.
//
// Speed matters here (the in-process app sets the ceiling for the node's tx/s): DeliverTx only
// touches memory; the block's writes and the app state go to disk in one batch at Commit.
import { ClassicLevel } from "classic-level";
import { addressOf as validatorAddress } from "../../crypto/hash.js";
import { type FillingBatch, fillRange, nativeBatchOf, writeOperations } from "../../level/native-batch.js";
import { nextTurn } from "../../next-turn.js";
import type {
  RequestBeginBlock,
  RequestCheckTx,
  RequestCommit,
  RequestDeliverTx,
  RequestEndBlock,
  RequestInfo,
  RequestInitChain,
  RequestQuery,
  ResponseCheckTx,
  ResponseDeliverTx,
  ValidatorUpdate,
} from "../../wire/generated/tendermint/abci/types.js";
import {
  EvidenceType,
  ValidatorUpdate as ValidatorUpdateCodec,
} from "../../wire/generated/tendermint/abci/types.js";
import { AbciError } from "../errors.js";
import { frameMessage } from "../framing.js";
import { CODE_ENCODING_ERROR, CODE_OK, CODE_UNAUTHORIZED } from "./codes.js";
import { kvstoreAppHash } from "./kvstore-app-hash.js";
import { KvstoreDeliverTx, keyOfTx } from "./kvstore-deliver-tx.js";
import { NoopApplication } from "./noop.js";
import {
  responseCheckTx,
  responseCommit,
  responseDeliverTx,
  responseEndBlock,
  responseInfo,
  responseInitChain,
  responseQuery,
} from "./responses.js";
import { decodeValidatorTx, encodeValidatorTx, validatorKey } from "./validator-tx.js";

const ABCI_VERSION = "0.17.0";
const APP_VERSION = 1n;
const EQUALS = 0x3d;
const utf8 = new TextEncoder();
const KV_PREFIX = utf8.encode("kvPairKey:");
const VAL_PREFIX = utf8.encode("val:");
/** First key after every "val:" key (":" is 0x3a, ";" 0x3b). */
const VAL_END = utf8.encode("val;");
const STATE_KEY = utf8.encode("stateKey");
const EMPTY = new Uint8Array(0);
/** Writes copied into the native batch per turn of the event loop at Commit (writePending). */
export const COMMIT_PIECE = 4096;

const CHECK_OK: ResponseCheckTx = responseCheckTx({ code: CODE_OK, gasWanted: 1n });

export interface KvstoreState {
  size: bigint;
  height: bigint;
  appHash: Uint8Array;
}

export interface KvstoreOptions {
  /** Accept persistent_kvstore's `val:<base64 pubkey>!<power>` transactions. */
  validatorTxs?: boolean;
  /** Keep only this many recent blocks (Commit's retain_height); 0 keeps all. */
  retainBlocks?: bigint;
  /** LevelDB's memory bounds for the app's database (classic-level's option names, bytes). */
  level?: { cacheSize: number; writeBufferSize: number; maxOpenFiles: number; maxFileSize: number };
}

function concat(a: Uint8Array, b: Uint8Array): Uint8Array {
  const out = new Uint8Array(a.length + b.length);
  out.set(a, 0);
  out.set(b, a.length);
  return out;
}

function startsWith(data: Uint8Array, prefix: Uint8Array): boolean {
  if (data.length < prefix.length) return false;
  for (let i = 0; i < prefix.length; i++) if (data[i] !== prefix[i]) return false;
  return true;
}

/**
 * `prefix ‖ bytes[0, end)` built in one reused buffer: each result is a view valid until the next
 * call, for a batch that copies its keys at once (the native batch's put).
 */
class PrefixedKeys {
  private readonly buffer = new Uint8Array(256);
  private readonly views: Uint8Array[] = [];

  constructor(private readonly prefix: Uint8Array) {
    this.buffer.set(prefix, 0);
  }

  of(bytes: Uint8Array, end: number): Uint8Array {
    const length = this.prefix.length + end;
    // A rare long key: its own array, so the buffer does not keep its size.
    if (length > this.buffer.length) return concat(this.prefix, bytes.subarray(0, end));
    let out = this.views[length];
    if (out === undefined) {
      out = this.buffer.subarray(0, length);
      this.views[length] = out;
    }
    const at = this.prefix.length;
    for (let i = 0; i < end; i++) out[at + i] = bytes[i]!;
    return out;
  }
}

/** A pending tx's value: after its "=" at `keyEnd`, or the whole tx when it is its own key. */
const valueAfterKey = (tx: Uint8Array, keyEnd: number): Uint8Array =>
  keyEnd === tx.length ? tx : tx.subarray(keyEnd + 1);

/** Map key for bytes: latin1 keeps one char per byte, so distinct bytes give distinct strings. */
const mapKey = (b: Uint8Array) => Buffer.from(b.buffer, b.byteOffset, b.byteLength).toString("latin1");

/** Whether a tx is persistent_kvstore's `val:` validator tx (only in that mode). */
export function isValidatorTx(tx: Uint8Array): boolean {
  return startsWith(tx, VAL_PREFIX);
}

/**
 * The key a kvstore tx writes: "key=value" splits on its one "="; any other tx (no "=", or more
 * than one) is its own key and value.
 */
export function kvKeyOf(tx: Uint8Array): Uint8Array {
  return keyOfTx(tx, kvKeyEndOf(tx));
}

/** Where kvKeyOf's key ends in the tx (its length when the tx is its own key), with no view made. */
export function kvKeyEndOf(tx: Uint8Array): number {
  const eq = tx.indexOf(EQUALS);
  return eq >= 0 && tx.indexOf(EQUALS, eq + 1) < 0 ? eq : tx.length;
}

/** The value a kvstore tx writes, given its key from kvKeyOf. */
export function kvValueOf(tx: Uint8Array, key: Uint8Array): Uint8Array {
  return valueAfterKey(tx, key.length);
}

export class KvstoreApplication extends NoopApplication {
  private state: KvstoreState = { size: 0n, height: 0n, appHash: EMPTY };
  /**
   * This block's key=value txs in order, each with where its key ends (at its "=", or its length
   * when the tx is its own key and value): their writes are made from these at Commit, one batch
   * where a later write to the same key wins. The tx is kept rather than its prefixed key's copy
   * and a view of its value: those were two objects per tx held from DeliverTx to Commit, alive
   * through the young generation's collections of that second and copied by each. Arrays, not a
   * Map keyed by bytes: building a map key per tx cost more than the rest of DeliverTx together.
   */
  private pendingTxs: Uint8Array[] = [];
  private pendingKeyEnds: number[] = [];
  /**
   * This block's other writes (persistent_kvstore's validators) in order, undefined value =
   * delete. Their keys ("val:…") never meet the txs' ("kvPairKey:…") or the state's, so they are
   * written after the txs' in the same batch.
   */
  private pendingKeys: Uint8Array[] = [];
  private pendingValues: (Uint8Array | undefined)[] = [];
  /** The key of each tx's write, built here at Commit (the native batch copies it at once). */
  private readonly keyScratch = new PrefixedKeys(KV_PREFIX);
  private validatorUpdates: ValidatorUpdate[] = [];
  /** Height of the block being executed (from BeginBlock's header), committed at Commit. */
  private blockHeight: bigint | undefined;
  /** Current validators (persistent_kvstore mode), by mapKey of the public key. */
  private readonly validators = new Map<string, ValidatorUpdate>();

  private constructor(
    private readonly db: ClassicLevel<Uint8Array, Uint8Array>,
    private readonly options: KvstoreOptions,
  ) {
    super();
  }

  /** Opens (or creates) the app's database in `directory` (the node passes <home>/data/kvstore.db). */
  static async open(directory: string, options: KvstoreOptions = {}): Promise<KvstoreApplication> {
    const db = new ClassicLevel<Uint8Array, Uint8Array>(directory, {
      keyEncoding: "view",
      valueEncoding: "view",
      ...options.level,
    });
    try {
      await db.open();
    } catch (err) {
      throw new AbciError(
        "ABCI_APP_FAILED",
        `kvstore: cannot open its database at ${directory}: ${(err as Error).message}`,
      );
    }
    const app = new KvstoreApplication(db, options);
    const saved = await db.get(STATE_KEY);
    if (saved !== undefined) app.state = parseState(saved, directory);
    if (options.validatorTxs) {
      for await (const [key, value] of db.iterator({ gte: VAL_PREFIX, lt: VAL_END })) {
        const update = decodeStoredValidator(value);
        if (update) app.validators.set(mapKey(key.subarray(VAL_PREFIX.length)), update);
      }
    }
    return app;
  }

  get currentState(): Readonly<KvstoreState> {
    return this.state;
  }

  override info(_req?: RequestInfo) {
    return responseInfo({
      data: `{"size":${this.state.size}}`,
      version: ABCI_VERSION,
      appVersion: APP_VERSION,
      lastBlockHeight: this.state.height,
      lastBlockAppHash: this.state.appHash,
    });
  }

  override initChain(req: RequestInitChain) {
    if (this.options.validatorTxs) for (const v of req.validators) this.updateValidator(v);
    return responseInitChain();
  }

  override beginBlock(req: RequestBeginBlock) {
    this.validatorUpdates = [];
    // The app's height is the chain's block height, not a count of commits: with a genesis
    // initial_height above 1 the two differ, and the handshake compares heights.
    this.blockHeight = req.header?.height;
    if (this.options.validatorTxs) {
      // persistent_kvstore punishes a duplicate vote by lowering the offender's power by one.
      for (const ev of req.byzantineValidators) {
        if (ev.type !== EvidenceType.DUPLICATE_VOTE || !ev.validator) continue;
        for (const v of this.validators.values()) {
          const pk = v.pubKey?.sum?.$case === "ed25519" ? v.pubKey.sum.ed25519 : undefined;
          if (pk && Buffer.from(validatorAddress(pk)).equals(Buffer.from(ev.validator.address))) {
            // Reported in EndBlock like a val: tx, so consensus lowers the power too (at H+2).
            const lowered: ValidatorUpdate = { pubKey: v.pubKey, power: ev.validator.power - 1n };
            this.updateValidator(lowered);
            this.recordUpdate(lowered);
            break;
          }
        }
      }
    }
    return super.beginBlock(req);
  }

  override checkTx(_req: RequestCheckTx): ResponseCheckTx {
    return CHECK_OK;
  }

  override deliverTx(req: RequestDeliverTx): ResponseDeliverTx {
    const tx = req.tx;
    if (this.options.validatorTxs && isValidatorTx(tx)) return this.deliverValidatorTx(tx);
    const keyEnd = kvKeyEndOf(tx);
    this.pendingTxs.push(tx);
    this.pendingKeyEnds.push(keyEnd);
    this.state.size++;
    // One object, its events made when read (kvstore-deliver-tx.ts): this is the hottest path of
    // the node, and its answers live until the height is indexed.
    return new KvstoreDeliverTx(tx, keyEnd);
  }

  override endBlock(_req?: RequestEndBlock) {
    return responseEndBlock({ validatorUpdates: this.validatorUpdates });
  }

  override async commit(_req?: RequestCommit) {
    const appHash = kvstoreAppHash(this.state.size);
    const height = this.blockHeight ?? this.state.height + 1n;
    const next: KvstoreState = { size: this.state.size, height, appHash };
    this.pendingKeys.push(STATE_KEY);
    this.pendingValues.push(serializeState(next));
    try {
      await this.writePending();
    } catch (error) {
      // Nothing was written: the block's writes stay pending as they were, without the state's.
      this.pendingKeys.pop();
      this.pendingValues.pop();
      throw error;
    }
    // Only now: a Commit retried after a failed write must commit the same height again.
    this.blockHeight = undefined;
    this.pendingTxs = [];
    this.pendingKeyEnds = [];
    this.pendingKeys = [];
    this.pendingValues = [];
    this.state = next;
    const retain = this.options.retainBlocks ?? 0n;
    const retainHeight = retain > 0n && next.height >= retain ? next.height - retain + 1n : 0n;
    return responseCommit({ data: appHash, retainHeight });
  }

  /**
   * The block's writes in one LevelDB write (src/level/native-batch.ts: the reused native batch,
   * or the array form where it is busy). Not a chained batch: classic-level frees its native copy
   * only when V8 collects it. The native batch is filled COMMIT_PIECE writes per turn of the event
   * loop: this app shares the node's thread, and a block of 20,000-50,000 txs took 20-75 ms to
   * copy into the batch in one piece, while every RPC request waited. Still one atomic write.
   */
  private async writePending(): Promise<void> {
    const native = nativeBatchOf(this.db);
    if (native === undefined || !native.available)
      return writeOperations(this.db, this.pendingWrites(), false);
    const filling = native.begin();
    const txs = this.pendingTxs.length;
    try {
      for (let from = 0; from < txs; from += COMMIT_PIECE) {
        if (from > 0) await nextTurn();
        this.putTxWrites(filling, from, Math.min(txs, from + COMMIT_PIECE));
      }
      const others = { keys: this.pendingKeys, values: this.pendingValues };
      fillRange(filling, others, 0, others.keys.length);
    } catch (error) {
      filling.abandon();
      throw error;
    }
    return filling.write(false);
  }

  /** The writes of the pending txs [from, to) into a native batch that copies them at once. */
  private putTxWrites(filling: FillingBatch, from: number, to: number): void {
    const txs = this.pendingTxs;
    const keyEnds = this.pendingKeyEnds;
    for (let i = from; i < to; i++) {
      const tx = txs[i]!;
      const keyEnd = keyEnds[i]!;
      filling.put(this.keyScratch.of(tx, keyEnd), valueAfterKey(tx, keyEnd));
    }
  }

  /** Every pending write as the array form takes them (where the native batch is not to be had). */
  private pendingWrites(): { keys: Uint8Array[]; values: (Uint8Array | undefined)[] } {
    const keys: Uint8Array[] = [];
    const values: (Uint8Array | undefined)[] = [];
    const txs = this.pendingTxs;
    for (let i = 0; i < txs.length; i++) {
      const tx = txs[i]!;
      const keyEnd = this.pendingKeyEnds[i]!;
      keys.push(concat(KV_PREFIX, tx.subarray(0, keyEnd)));
      values.push(valueAfterKey(tx, keyEnd));
    }
    keys.push(...this.pendingKeys);
    values.push(...this.pendingValues);
    return { keys, values };
  }

  override query(req: RequestQuery) {
    if (this.options.validatorTxs && req.path === "/val") {
      const v = this.validators.get(mapKey(req.data));
      // As persistent_kvstore stores and returns it: Go's WriteMessage (zigzag varint length,
      // then the ValidatorUpdate's protobuf), so clients decode it the same way.
      return responseQuery({
        key: req.data,
        value: v ? frameMessage(ValidatorUpdateCodec.encode(v).finish()) : EMPTY,
      });
    }
    // Committed state only: the answer matches `height`, the last committed block.
    const value = this.db.getSync(concat(KV_PREFIX, req.data));
    return responseQuery({
      key: req.data,
      value: value ?? EMPTY,
      log: value === undefined ? "does not exist" : "exists",
      index: req.prove ? -1n : 0n,
      height: this.state.height,
    });
  }

  /** The committed value of an app key (what `query` answers), for the operator's rollback. */
  committedValue(key: Uint8Array): Uint8Array | undefined {
    return this.db.getSync(concat(KV_PREFIX, key));
  }

  /**
   * Operator rollback (`rxbft rollback`): puts the app back to `target` in one synced batch,
   * restoring each given app key (undefined deletes it) and, when `validators` is given
   * (persistent mode), replacing the stored validators with them. Never called on a running node.
   */
  async rewind(
    target: KvstoreState,
    pairs: readonly (readonly [Uint8Array, Uint8Array | undefined])[],
    validators?: readonly ValidatorUpdate[],
  ): Promise<void> {
    const batch = this.db.batch();
    for (const [key, value] of pairs) {
      if (value === undefined) batch.del(concat(KV_PREFIX, key));
      else batch.put(concat(KV_PREFIX, key), value);
    }
    if (validators !== undefined) {
      for await (const key of this.db.keys({ gte: VAL_PREFIX, lt: VAL_END })) batch.del(key);
      for (const v of validators) batch.put(concat(VAL_PREFIX, validatorKey(v)), encodeValidatorTx(v));
    }
    batch.put(STATE_KEY, serializeState(target));
    await batch.write({ sync: true });
    this.state = { ...target };
  }

  override async close(): Promise<void> {
    await this.db.close();
  }

  private deliverValidatorTx(tx: Uint8Array): ResponseDeliverTx {
    const parsed = decodeValidatorTx(tx);
    if (typeof parsed === "string") return responseDeliverTx({ code: CODE_ENCODING_ERROR, log: parsed });
    if (parsed.power === 0n && !this.validators.has(mapKey(validatorKey(parsed)))) {
      return responseDeliverTx({ code: CODE_UNAUTHORIZED, log: "Cannot remove non-existent validator" });
    }
    this.updateValidator(parsed);
    this.recordUpdate(parsed);
    return responseDeliverTx({ code: CODE_OK });
  }

  /**
   * Adds a change to this block's EndBlock updates. A later change to the same key replaces an
   * earlier one: two entries for one validator would make the node refuse the whole update
   * (duplicate address) and stop.
   */
  private recordUpdate(v: ValidatorUpdate): void {
    const key = mapKey(validatorKey(v));
    const at = this.validatorUpdates.findIndex((u) => mapKey(validatorKey(u)) === key);
    if (at >= 0) this.validatorUpdates[at] = v;
    else this.validatorUpdates.push(v);
  }

  private updateValidator(v: ValidatorUpdate): void {
    const pk = validatorKey(v);
    const dbKey = concat(VAL_PREFIX, pk);
    this.pendingKeys.push(dbKey);
    if (v.power <= 0n) {
      this.validators.delete(mapKey(pk));
      this.pendingValues.push(undefined);
    } else {
      this.validators.set(mapKey(pk), v);
      this.pendingValues.push(encodeValidatorTx(v));
    }
  }
}

function decodeStoredValidator(value: Uint8Array): ValidatorUpdate | undefined {
  const parsed = decodeValidatorTx(value);
  return typeof parsed === "string" ? undefined : parsed;
}

function serializeState(s: KvstoreState): Uint8Array {
  return utf8.encode(
    JSON.stringify({
      size: s.size.toString(),
      height: s.height.toString(),
      app_hash: Buffer.from(s.appHash).toString("base64"),
    }),
  );
}

function parseState(bytes: Uint8Array, where: string): KvstoreState {
  try {
    const j = JSON.parse(Buffer.from(bytes).toString("utf8")) as {
      size: string;
      height: string;
      app_hash: string;
    };
    return {
      size: BigInt(j.size),
      height: BigInt(j.height),
      appHash: new Uint8Array(Buffer.from(j.app_hash, "base64")),
    };
  } catch (err) {
    throw new AbciError(
      "ABCI_APP_FAILED",
      `kvstore: saved state in ${where} is unreadable: ${(err as Error).message}`,
    );
  }
}
