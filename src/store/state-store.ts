// The state store: the latest State, validator sets and consensus params by height, and the
// ABCI responses of each height. Validator sets and params are stored in full only where they
// change (and validators also at checkpoints); other heights hold a pointer (the height of the
// last change), as Tendermint's ValidatorsInfo / ConsensusParamsInfo do. One save is one
// atomic, synced batch holding the new State and everything that belongs to its height.
// While a save is being written and synced, reads answer from its records: the node goes on to
// the next height (and publishes the saved height's events) before the sync ends
// (docs/storage.md, "The node's pipeline"), and a client told of height H must find H+1's
// validators and params.
import {
  ABCIResponses,
  ConsensusParamsInfo,
  State,
  ValidatorsInfo,
} from "../wire/generated/tendermint/state/types.js";
import type { ConsensusParams } from "../wire/generated/tendermint/types/params.js";
import type { ValidatorSet } from "../wire/generated/tendermint/types/validator.js";
import { encodeAbciResponses } from "./deliver-tx-bytes.js";
import { StoreError } from "./errors.js";
import { heightKey, readUint64 } from "./key-bytes.js";
import { type BinaryLevel, LevelBatch } from "./level-database.js";
import { decodeStored, encodeMessage } from "./proto-codec.js";
import {
  abciResponsesKey,
  lastStoredValidatorsHeight,
  PREFIX_ABCI_RESPONSES,
  PREFIX_PARAMS,
  PREFIX_VALIDATORS,
  paramsKey,
  STATE_KEY,
  VALSET_CHECKPOINT_INTERVAL,
  validatorsKey,
} from "./state-store-keys.js";

/**
 * Advances proposer priorities `times` rounds (ValidatorSet.IncrementProposerPriority). The
 * state module owns that arithmetic; the store needs it to rebuild a set stored at an earlier
 * height, exactly as Tendermint's LoadValidators does.
 */
export type AdvanceProposerPriority = (set: ValidatorSet, times: bigint) => ValidatorSet;

export interface StateStoreOptions {
  sync?: boolean;
  advanceProposerPriority?: AdvanceProposerPriority;
}

type Batch = Pick<LevelBatch, "put">;

const keyId = (key: Uint8Array) => Buffer.from(key).toString("latin1");

export class StateStore {
  #db: BinaryLevel;
  #state: State | undefined;
  /** Lowest height holding a validators record; pointers below it cannot be followed. */
  #validatorsFloor: bigint | undefined;
  readonly #sync: boolean;
  readonly #advance: AdvanceProposerPriority | undefined;
  /** Records of the saves still being written, by key: what reads see until the write ends. */
  readonly #writing = new Map<string, Uint8Array>();

  private constructor(db: BinaryLevel, options: StateStoreOptions) {
    this.#db = db;
    this.#sync = options.sync ?? true;
    this.#advance = options.advanceProposerPriority;
  }

  static async open(db: BinaryLevel, options: StateStoreOptions = {}): Promise<StateStore> {
    const store = new StateStore(db, options);
    const raw = await db.get(STATE_KEY);
    if (raw !== undefined) store.#state = decodeStored(State, raw, "state.db latest state");
    const first = await db
      .keys({ gte: heightKey(PREFIX_VALIDATORS, 0n), lt: Uint8Array.of(PREFIX_VALIDATORS + 1), limit: 1 })
      .all();
    store.#validatorsFloor = first.length === 1 ? readUint64(first[0]!, 1) : undefined;
    return store;
  }

  /** The latest saved State, or undefined before genesis was saved. */
  load(): State | undefined {
    return this.#state;
  }

  /** Height of the latest saved state's block (0 after genesis, undefined when empty). */
  lastBlockHeight(): bigint | undefined {
    return this.#state?.lastBlockHeight;
  }

  /**
   * Saves the state after a height (or the genesis state, lastBlockHeight 0) in one batch with
   * the validator and params records it implies and, when given, the ABCI responses of
   * state.lastBlockHeight.
   */
  async save(state: State, abciResponses?: ABCIResponses): Promise<void> {
    const written = new LevelBatch(this.#db);
    const records: [Uint8Array, Uint8Array][] = [];
    const batch: Batch = {
      put(key: Uint8Array, value: Uint8Array) {
        records.push([key, value]);
        return written.put(key, value);
      },
    };
    let nextHeight = state.lastBlockHeight + 1n;
    if (nextHeight === 1n) {
      // Genesis: the first height's validators are state.validators, stored in full.
      nextHeight = state.initialHeight;
      this.#putValidators(
        batch,
        nextHeight,
        nextHeight,
        requireSet(state.validators, "validators", nextHeight),
      );
    } else if (abciResponses !== undefined) {
      batch.put(abciResponsesKey(state.lastBlockHeight), encodeAbciResponses(abciResponses));
    }
    this.#putValidators(
      batch,
      nextHeight + 1n,
      state.lastHeightValidatorsChanged,
      requireSet(state.nextValidators, "next_validators", nextHeight + 1n),
    );
    this.#putParams(batch, nextHeight, state.lastHeightConsensusParamsChanged, state.consensusParams);
    batch.put(STATE_KEY, encodeMessage(State, state));
    for (const [key, value] of records) this.#writing.set(keyId(key), value);
    try {
      await written.write({ sync: this.#sync });
      this.#state = state;
    } finally {
      // Now in LevelDB (or failed, and the node halts): reads go back to the database. A later
      // save of the same key may be writing meanwhile; its record stays.
      for (const [key, value] of records) {
        const id = keyId(key);
        if (this.#writing.get(id) === value) this.#writing.delete(id);
      }
    }
  }

  /** A record, from a save still being written if one holds it, else from the database. */
  #get(key: Uint8Array): Uint8Array | undefined {
    return this.#writing.size > 0
      ? (this.#writing.get(keyId(key)) ?? this.#db.getSync(key))
      : this.#db.getSync(key);
  }

  /**
   * Saves a state obtained from elsewhere (state sync): the last, current and next validator
   * sets are stored in full at their heights, since no earlier records exist to point to.
   */
  async bootstrap(state: State): Promise<void> {
    const batch = new LevelBatch(this.#db);
    let height = state.lastBlockHeight + 1n;
    if (height === 1n) height = state.initialHeight;
    if (height > 1n && state.lastValidators !== undefined && state.lastValidators.validators.length > 0) {
      this.#putFullValidators(batch, height - 1n, height - 1n, state.lastValidators);
    }
    this.#putFullValidators(batch, height, height, requireSet(state.validators, "validators", height));
    this.#putFullValidators(
      batch,
      height + 1n,
      height + 1n,
      requireSet(state.nextValidators, "next_validators", height + 1n),
    );
    batch.put(
      paramsKey(height),
      encodeMessage(ConsensusParamsInfo, {
        consensusParams: state.consensusParams,
        lastHeightChanged: height,
      }),
    );
    batch.put(STATE_KEY, encodeMessage(State, state));
    await batch.write({ sync: this.#sync });
    this.#state = state;
  }

  /**
   * Saves a height's ABCI responses on their own (synced), as Tendermint does between
   * executing a block and the app's Commit: if the node stops after the app committed but
   * before the state was saved, the handshake rebuilds the state from these responses
   * instead of executing the block again on an app that already has it.
   */
  async saveABCIResponses(height: bigint, abciResponses: ABCIResponses): Promise<void> {
    await this.#db.put(abciResponsesKey(height), encodeAbciResponses(abciResponses), {
      sync: this.#sync,
    });
  }

  /** The validator set for `height`, with proposer priorities as of that height. */
  async loadValidators(height: bigint): Promise<ValidatorSet> {
    const info = this.#readValidatorsInfo(height);
    if (info === undefined) throw noRecord("validator set", height);
    if (info.validatorSet !== undefined) return info.validatorSet;
    const storedAt = lastStoredValidatorsHeight(height, info.lastHeightChanged);
    const stored = this.#readValidatorsInfo(storedAt);
    if (stored?.validatorSet === undefined) {
      throw new StoreError(
        "STORE_CORRUPT",
        `state.db: validators of height ${height} point to height ${storedAt}, which holds no validator set`,
      );
    }
    if (storedAt === height) return stored.validatorSet;
    if (this.#advance === undefined) {
      throw new StoreError(
        "STORE_NEEDS_PRIORITY_FUNCTION",
        `validators of height ${height} are stored at height ${storedAt}; loading them needs advanceProposerPriority`,
      );
    }
    return this.#advance(stored.validatorSet, height - storedAt);
  }

  async loadConsensusParams(height: bigint): Promise<ConsensusParams> {
    const raw = this.#get(paramsKey(height));
    if (raw === undefined) throw noRecord("consensus params", height);
    const info = decodeStored(ConsensusParamsInfo, raw, `state.db params ${height}`);
    if (info.lastHeightChanged === height) return info.consensusParams;
    const changedRaw = this.#get(paramsKey(info.lastHeightChanged));
    if (changedRaw === undefined) {
      throw new StoreError(
        "STORE_CORRUPT",
        `state.db: consensus params of height ${height} point to height ${info.lastHeightChanged}, which is missing`,
      );
    }
    return decodeStored(ConsensusParamsInfo, changedRaw, `state.db params ${info.lastHeightChanged}`)
      .consensusParams;
  }

  async loadABCIResponses(height: bigint): Promise<ABCIResponses | undefined> {
    const raw = this.#get(abciResponsesKey(height));
    return raw === undefined
      ? undefined
      : decodeStored(ABCIResponses, raw, `state.db ABCI responses ${height}`);
  }

  /**
   * The height at which the validator set of `height` last changed, as its record says
   * (undefined when no record exists). `rollback` rebuilds an earlier state's
   * last_height_validators_changed from it instead of guessing.
   */
  validatorsChangedAt(height: bigint): bigint | undefined {
    return this.#readValidatorsInfo(height)?.lastHeightChanged;
  }

  /** The height at which the consensus params of `height` last changed, as its record says. */
  paramsChangedAt(height: bigint): bigint | undefined {
    const raw = this.#get(paramsKey(height));
    return raw === undefined
      ? undefined
      : decodeStored(ConsensusParamsInfo, raw, `state.db params ${height}`).lastHeightChanged;
  }

  /**
   * Replaces the latest state with the state one height back (`rollback`), in one synced batch:
   * the new State, the records it implies (as `save` writes them), and, with `dropResponsesOf`,
   * the deletion of that height's ABCI responses (`rollback --hard` removes the block they belong to).
   */
  async rollBackTo(state: State, dropResponsesOf?: bigint): Promise<void> {
    const latest = this.#state?.lastBlockHeight;
    if (latest === undefined || state.lastBlockHeight !== latest - 1n || state.lastBlockHeight < 1n) {
      throw new StoreError(
        "STORE_INVALID_SAVE",
        `cannot roll the state back to height ${state.lastBlockHeight}: the latest state is at ${latest ?? "none"}`,
      );
    }
    const batch = new LevelBatch(this.#db);
    const nextHeight = state.lastBlockHeight + 1n;
    this.#putValidators(
      batch,
      nextHeight + 1n,
      state.lastHeightValidatorsChanged,
      requireSet(state.nextValidators, "next_validators", nextHeight + 1n),
    );
    this.#putParams(batch, nextHeight, state.lastHeightConsensusParamsChanged, state.consensusParams);
    if (dropResponsesOf !== undefined) batch.del(abciResponsesKey(dropResponsesOf));
    batch.put(STATE_KEY, encodeMessage(State, state));
    await batch.write({ sync: true });
    this.#state = state;
  }

  /**
   * Deletes per-height records below `retainHeight`, keeping the records that heights from
   * `retainHeight` on still point to. Returns how many heights' records were deleted.
   */
  async pruneStates(retainHeight: bigint): Promise<number> {
    const latest = this.#state?.lastBlockHeight ?? 0n;
    if (retainHeight <= 0n || retainHeight > latest) {
      throw new StoreError(
        "STORE_INVALID_SAVE",
        `state retain height ${retainHeight} must be within [1, ${latest}] (the latest saved height)`,
      );
    }
    const keep = new Set<bigint>();
    const valInfo = this.#readValidatorsInfo(retainHeight);
    if (valInfo !== undefined && valInfo.validatorSet === undefined) {
      keep.add(lastStoredValidatorsHeight(retainHeight, valInfo.lastHeightChanged));
    }
    const paramsRaw = this.#db.getSync(paramsKey(retainHeight));
    const keepParams =
      paramsRaw === undefined
        ? undefined
        : decodeStored(ConsensusParamsInfo, paramsRaw, `state.db params ${retainHeight}`).lastHeightChanged;
    let pruned = 0;
    for (const prefix of [PREFIX_VALIDATORS, PREFIX_PARAMS, PREFIX_ABCI_RESPONSES]) {
      const keys = await this.#db
        .keys({ gte: heightKey(prefix, 0n), lt: heightKey(prefix, retainHeight) })
        .all();
      const batch = new LevelBatch(this.#db);
      for (const key of keys) {
        const h = readUint64(key, 1);
        if (prefix === PREFIX_VALIDATORS && keep.has(h)) continue;
        if (prefix === PREFIX_PARAMS && h === keepParams) continue;
        batch.del(key);
        if (prefix === PREFIX_ABCI_RESPONSES) pruned++;
      }
      await batch.write({ sync: this.#sync });
      await this.#db.compactRange(heightKey(prefix, 0n), heightKey(prefix, retainHeight));
    }
    const first = await this.#db
      .keys({ gte: heightKey(PREFIX_VALIDATORS, 0n), lt: Uint8Array.of(PREFIX_VALIDATORS + 1), limit: 1 })
      .all();
    this.#validatorsFloor = first.length === 1 ? readUint64(first[0]!, 1) : undefined;
    return pruned;
  }

  #readValidatorsInfo(height: bigint): ValidatorsInfo | undefined {
    const raw = this.#get(validatorsKey(height));
    return raw === undefined ? undefined : decodeStored(ValidatorsInfo, raw, `state.db validators ${height}`);
  }

  #putValidators(batch: Batch, height: bigint, lastHeightChanged: bigint, set: ValidatorSet): void {
    const storedAt = lastStoredValidatorsHeight(height, lastHeightChanged);
    // Full set where it changed, at checkpoints, and whenever the pointer would reach below
    // the first record this store holds (after state sync or pruning).
    const full =
      height === lastHeightChanged ||
      height % VALSET_CHECKPOINT_INTERVAL === 0n ||
      this.#validatorsFloor === undefined ||
      storedAt < this.#validatorsFloor;
    if (full) this.#putFullValidators(batch, height, lastHeightChanged, set);
    else
      batch.put(
        validatorsKey(height),
        encodeMessage(ValidatorsInfo, { validatorSet: undefined, lastHeightChanged }),
      );
  }

  #putFullValidators(batch: Batch, height: bigint, lastHeightChanged: bigint, set: ValidatorSet): void {
    batch.put(validatorsKey(height), encodeMessage(ValidatorsInfo, { validatorSet: set, lastHeightChanged }));
    if (this.#validatorsFloor === undefined || height < this.#validatorsFloor) this.#validatorsFloor = height;
  }

  #putParams(batch: Batch, height: bigint, lastHeightChanged: bigint, params: ConsensusParams): void {
    // A record is full when it says it changed at its own height. When the change height's
    // record is not here (state sync, pruning) the params are stored in full at this height.
    const pointerUsable =
      height !== lastHeightChanged && this.#get(paramsKey(lastHeightChanged)) !== undefined;
    const info: ConsensusParamsInfo = pointerUsable
      ? { consensusParams: EMPTY_PARAMS, lastHeightChanged }
      : { consensusParams: params, lastHeightChanged: height };
    batch.put(paramsKey(height), encodeMessage(ConsensusParamsInfo, info));
  }
}

// Pointer records carry default params (the field is non-nullable in the schema).
const EMPTY_PARAMS: ConsensusParams = ConsensusParamsInfo.decode(new Uint8Array(0)).consensusParams;

function requireSet(set: ValidatorSet | undefined, field: string, height: bigint): ValidatorSet {
  if (set === undefined) {
    throw new StoreError(
      "STORE_INVALID_SAVE",
      `cannot save state: ${field} (for height ${height}) is missing`,
    );
  }
  return set;
}

function noRecord(what: string, height: bigint): StoreError {
  return new StoreError("STORE_HEIGHT_UNAVAILABLE", `could not find ${what} for height #${height}`);
}
