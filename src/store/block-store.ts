// The block store: per height the block's meta, its parts, the commit for the previous height
// (carried in this block's last_commit) and the commit this node saw; plus hash → height.
// Each save is one atomic, synced batch that also moves {base, height}, so the store is never
// half-written. base, height and the latest meta live in memory; point reads use LevelDB's
// synchronous get (no thread hop), ranges use one getMany.
import { Block } from "../wire/generated/tendermint/types/block.js";
import type { BlockID } from "../wire/generated/tendermint/types/types.js";
import { BlockMeta, Commit, Part } from "../wire/generated/tendermint/types/types.js";
import {
  BLOCK_STORE_STATE_KEY,
  commitKey,
  decodeBlockStoreState,
  encodeBlockStoreState,
  hashKey,
  metaKey,
  PREFIX_COMMIT,
  PREFIX_META,
  PREFIX_PART,
  PREFIX_SEEN_COMMIT,
  partKey,
  seenCommitKey,
} from "./block-store-keys.js";
import { StoreError } from "./errors.js";
import { concatBytes, decodeHeight, encodeHeight, heightKey } from "./key-bytes.js";
import { type BinaryLevel, LevelBatch } from "./level-database.js";
import { decodeStored, encodeMessage } from "./proto-codec.js";

/** Everything saved for one height, in one batch. */
export interface SaveBlockInput {
  block: Block;
  /** The block's ID: header hash and part-set header, as consensus committed it. */
  blockId: BlockID;
  /** The complete part set, parts in index order 0..total-1. */
  parts: readonly Part[];
  /** The +2/3 precommits this node saw for the block. */
  seenCommit: Commit;
}

export interface BlockStoreOptions {
  /** fsync every save batch (default true): a block reported saved survives power loss. */
  sync?: boolean;
  /** Heights deleted per prune batch (default 1000); each batch also moves base. */
  pruneBatchHeights?: number;
}

/** Upper bound on heights one loadBlockMetas call reads (`blockchain` asks for 20). */
export const MAX_METAS_PER_READ = 1000;

export class BlockStore {
  #db: BinaryLevel;
  #base = 0n;
  #height = 0n;
  #latestMeta: BlockMeta | undefined;
  readonly #sync: boolean;
  readonly #pruneBatchHeights: number;

  private constructor(db: BinaryLevel, options: BlockStoreOptions) {
    this.#db = db;
    this.#sync = options.sync ?? true;
    this.#pruneBatchHeights = Math.max(1, options.pruneBatchHeights ?? 1000);
  }

  /** Opens the store over an open database and loads {base, height} and the latest meta. */
  static async open(db: BinaryLevel, options: BlockStoreOptions = {}): Promise<BlockStore> {
    const store = new BlockStore(db, options);
    const raw = await db.get(BLOCK_STORE_STATE_KEY);
    if (raw !== undefined) {
      const state = decodeBlockStoreState(raw);
      if (state === undefined || state.base > state.height || (state.base === 0n) !== (state.height === 0n)) {
        throw new StoreError(
          "STORE_CORRUPT",
          `blockstore.db: invalid store state record (${raw.length} bytes)`,
        );
      }
      store.#base = state.base;
      store.#height = state.height;
      if (state.height > 0n) {
        store.#latestMeta = store.#readMeta(state.height);
        if (store.#latestMeta === undefined) {
          throw new StoreError(
            "STORE_CORRUPT",
            `blockstore.db: store state says height ${state.height} but its block meta is missing`,
          );
        }
      }
    }
    return store;
  }

  /** Lowest height still stored (0 when empty). */
  base(): bigint {
    return this.#base;
  }

  /** Latest stored height (0 when empty). */
  height(): bigint {
    return this.#height;
  }

  /** Number of stored heights. */
  size(): bigint {
    return this.#height === 0n ? 0n : this.#height - this.#base + 1n;
  }

  latestMeta(): BlockMeta | undefined {
    return this.#latestMeta;
  }

  /**
   * Saves block, parts, its last_commit (as the commit of height-1) and the seen commit in one
   * atomic batch. Heights must follow on: the first save may be at any height (initial_height,
   * state sync), then height+1 each time.
   */
  async saveBlock(input: SaveBlockInput): Promise<void> {
    const { block, blockId, parts, seenCommit } = input;
    const height = block.header.height;
    if (height <= 0n) {
      throw new StoreError(
        "STORE_INVALID_SAVE",
        `cannot save block with height ${height}: heights start at 1`,
      );
    }
    if (this.#height > 0n && height !== this.#height + 1n) {
      throw new StoreError(
        "STORE_INVALID_SAVE",
        `block store can only save contiguous blocks: wanted height ${this.#height + 1n}, got ${height}`,
      );
    }
    const total = blockId.partSetHeader.total;
    if (parts.length !== total || total === 0) {
      throw new StoreError(
        "STORE_INVALID_SAVE",
        `block ${height}: can only save a complete part set: have ${parts.length} of ${total} parts`,
      );
    }
    if (seenCommit.height !== height) {
      throw new StoreError(
        "STORE_INVALID_SAVE",
        `block ${height}: seen commit is for height ${seenCommit.height}, not the block's height`,
      );
    }
    const batch = new LevelBatch(this.#db);
    let blockSize = 0;
    for (let i = 0; i < parts.length; i++) {
      const part = parts[i]!;
      if (part.index !== i) {
        throw new StoreError(
          "STORE_INVALID_SAVE",
          `block ${height}: part at position ${i} has index ${part.index}`,
        );
      }
      blockSize += part.bytes.length;
      batch.put(partKey(height, i), encodeMessage(Part, part));
    }
    const meta: BlockMeta = {
      blockId,
      blockSize: BigInt(blockSize),
      header: block.header,
      numTxs: BigInt(block.data.txs.length),
    };
    batch.put(metaKey(height), encodeMessage(BlockMeta, meta));
    batch.put(hashKey(blockId.hash), encodeHeight(height));
    const lastCommit = block.lastCommit;
    // The first block (or one after an initial_height) carries an empty last commit of height 0.
    if (lastCommit !== undefined && lastCommit.height > 0n) {
      if (lastCommit.height !== height - 1n) {
        throw new StoreError(
          "STORE_INVALID_SAVE",
          `block ${height}: last_commit is for height ${lastCommit.height}, expected ${height - 1n}`,
        );
      }
      batch.put(commitKey(lastCommit.height), encodeMessage(Commit, lastCommit));
    }
    batch.put(seenCommitKey(height), encodeMessage(Commit, seenCommit));
    const base = this.#base === 0n ? height : this.#base;
    batch.put(BLOCK_STORE_STATE_KEY, encodeBlockStoreState(base, height));
    await batch.write({ sync: this.#sync });
    this.#base = base;
    this.#height = height;
    this.#latestMeta = meta;
  }

  async loadBlockMeta(height: bigint): Promise<BlockMeta | undefined> {
    if (height === this.#height && this.#latestMeta !== undefined) return this.#latestMeta;
    if (!this.#holds(height)) return undefined;
    return this.#readMeta(height);
  }

  /** Metas for heights [minHeight, maxHeight] ∩ [base, height], in ascending order, one read. */
  async loadBlockMetas(minHeight: bigint, maxHeight: bigint): Promise<BlockMeta[]> {
    const from = minHeight < this.#base ? this.#base : minHeight;
    const to = maxHeight > this.#height ? this.#height : maxHeight;
    if (this.#height === 0n || from > to) return [];
    if (to - from + 1n > BigInt(MAX_METAS_PER_READ)) {
      throw new StoreError(
        "STORE_HEIGHT_UNAVAILABLE",
        `loadBlockMetas: range ${from}..${to} is larger than ${MAX_METAS_PER_READ} heights`,
      );
    }
    const keys: Uint8Array[] = [];
    for (let h = from; h <= to; h++) keys.push(metaKey(h));
    const values = await this.#db.getMany(keys);
    return values.map((value, i) => {
      const h = from + BigInt(i);
      if (value === undefined) throw missing(`block meta of height ${h}`);
      return decodeStored(BlockMeta, value, `blockstore.db meta ${h}`);
    });
  }

  async loadBlockPart(height: bigint, index: number): Promise<Part | undefined> {
    if (!this.#holds(height)) return undefined;
    const value = this.#db.getSync(partKey(height, index));
    return value === undefined
      ? undefined
      : decodeStored(Part, value, `blockstore.db part ${height}:${index}`);
  }

  /** The block at `height`, reassembled from its parts; undefined outside [base, height]. */
  async loadBlock(height: bigint): Promise<Block | undefined> {
    const bytes = await this.loadBlockBytes(height);
    return bytes === undefined ? undefined : decodeStored(Block, bytes, `block ${height}`);
  }

  /** The block at `height` as its protobuf encoding (its parts joined), for serving it to peers. */
  async loadBlockBytes(height: bigint): Promise<Uint8Array | undefined> {
    const meta = await this.loadBlockMeta(height);
    if (meta === undefined) return undefined;
    const total = meta.blockId.partSetHeader.total;
    const chunks: Uint8Array[] = [];
    for (let i = 0; i < total; i++) {
      const value = this.#db.getSync(partKey(height, i));
      if (value === undefined) throw missing(`part ${i} of ${total} of block ${height}`);
      chunks.push(decodeStored(Part, value, `blockstore.db part ${height}:${i}`).bytes);
    }
    return chunks.length === 1 ? chunks[0]! : concatBytes(chunks);
  }

  async loadBlockByHash(hash: Uint8Array): Promise<Block | undefined> {
    const height = this.heightOfHash(hash);
    return height === undefined ? undefined : this.loadBlock(height);
  }

  async loadBlockMetaByHash(hash: Uint8Array): Promise<BlockMeta | undefined> {
    const height = this.heightOfHash(hash);
    return height === undefined ? undefined : this.loadBlockMeta(height);
  }

  /** Height of the stored block with this hash, if any. */
  heightOfHash(hash: Uint8Array): bigint | undefined {
    const value = this.#db.getSync(hashKey(hash));
    if (value === undefined) return undefined;
    const height = decodeHeight(value);
    if (height === undefined)
      throw new StoreError("STORE_CORRUPT", "blockstore.db: hash index value is not a height");
    return this.#holds(height) ? height : undefined;
  }

  /** The canonical commit for `height`, saved with block height+1 (absent for the latest height). */
  async loadBlockCommit(height: bigint): Promise<Commit | undefined> {
    if (!this.#holds(height)) return undefined;
    const value = this.#db.getSync(commitKey(height));
    return value === undefined ? undefined : decodeStored(Commit, value, `blockstore.db commit ${height}`);
  }

  /**
   * Stores a seen commit without its block: state sync keeps the commit of the snapshot height
   * so consensus can start above it before any block is fetched.
   */
  async saveSeenCommit(height: bigint, commit: Commit): Promise<void> {
    if (commit.height !== height) {
      throw new StoreError("STORE_INVALID_SAVE", `seen commit is for height ${commit.height}, not ${height}`);
    }
    await this.#db.put(seenCommitKey(height), encodeMessage(Commit, commit), { sync: this.#sync });
  }

  /** The commit this node saw for `height` (the only commit for the latest height). */
  async loadSeenCommit(height: bigint): Promise<Commit | undefined> {
    // Not limited to [base, height]: after state sync the snapshot's commit precedes any block.
    if (height <= 0n) return undefined;
    const value = this.#db.getSync(seenCommitKey(height));
    return value === undefined
      ? undefined
      : decodeStored(Commit, value, `blockstore.db seen commit ${height}`);
  }

  /**
   * Deletes every height below `retainHeight`, in batches that each move base, then compacts
   * the freed ranges so the space returns to the file system. Returns how many heights went.
   */
  async pruneBlocks(retainHeight: bigint): Promise<bigint> {
    if (retainHeight <= 0n) {
      throw new StoreError("STORE_INVALID_SAVE", `retain height must be greater than 0, got ${retainHeight}`);
    }
    if (retainHeight > this.#height) {
      throw new StoreError(
        "STORE_INVALID_SAVE",
        `cannot prune beyond the latest height ${this.#height} (retain height ${retainHeight})`,
      );
    }
    if (retainHeight <= this.#base) return 0n;
    const firstPruned = this.#base;
    let pruned = 0n;
    for (let from = this.#base; from < retainHeight; ) {
      let to = from + BigInt(this.#pruneBatchHeights);
      if (to > retainHeight) to = retainHeight;
      const metas = await this.loadBlockMetas(from, to - 1n);
      const batch = new LevelBatch(this.#db);
      for (const meta of metas) {
        const h = meta.header.height;
        batch.del(metaKey(h));
        batch.del(hashKey(meta.blockId.hash));
        batch.del(commitKey(h));
        batch.del(seenCommitKey(h));
        for (let i = 0; i < meta.blockId.partSetHeader.total; i++) batch.del(partKey(h, i));
      }
      batch.put(BLOCK_STORE_STATE_KEY, encodeBlockStoreState(to, this.#height));
      await batch.write({ sync: this.#sync });
      this.#base = to;
      pruned += to - from;
      from = to;
    }
    // Deleted keys only become free space once compaction drops them; do it for what we freed.
    for (const prefix of [PREFIX_META, PREFIX_PART, PREFIX_COMMIT, PREFIX_SEEN_COMMIT]) {
      await this.#db.compactRange(heightKey(prefix, firstPruned), heightKey(prefix, retainHeight));
    }
    return pruned;
  }

  /**
   * Removes the latest block (`rollback --hard`) in one synced batch: its meta, parts, hash entry
   * and seen commit, and the commit of the height below that it carried. The seen commit of the
   * new latest height is kept, or written from the removed block's last_commit when missing, so
   * consensus can start above it. Returns the removed height.
   */
  async deleteLatestBlock(): Promise<bigint> {
    const height = this.#height;
    const meta = this.#latestMeta;
    if (height === 0n || meta === undefined) {
      throw new StoreError("STORE_HEIGHT_UNAVAILABLE", "the block store holds no block to remove");
    }
    const block = await this.loadBlock(height);
    const batch = new LevelBatch(this.#db);
    batch.del(metaKey(height));
    batch.del(hashKey(meta.blockId.hash));
    batch.del(seenCommitKey(height));
    for (let i = 0; i < meta.blockId.partSetHeader.total; i++) batch.del(partKey(height, i));
    const below = height - 1n;
    const remaining = height > this.#base;
    if (remaining) {
      batch.del(commitKey(below));
      const lastCommit = block?.lastCommit;
      if (this.#db.getSync(seenCommitKey(below)) === undefined && lastCommit && lastCommit.height === below) {
        batch.put(seenCommitKey(below), encodeMessage(Commit, lastCommit));
      }
    }
    batch.put(
      BLOCK_STORE_STATE_KEY,
      encodeBlockStoreState(remaining ? this.#base : 0n, remaining ? below : 0n),
    );
    await batch.write({ sync: true });
    if (remaining) {
      this.#height = below;
      this.#latestMeta = this.#readMeta(below);
    } else {
      this.#base = 0n;
      this.#height = 0n;
      this.#latestMeta = undefined;
    }
    return height;
  }

  #holds(height: bigint): boolean {
    return this.#height > 0n && height >= this.#base && height <= this.#height;
  }

  #readMeta(height: bigint): BlockMeta | undefined {
    const value = this.#db.getSync(metaKey(height));
    return value === undefined ? undefined : decodeStored(BlockMeta, value, `blockstore.db meta ${height}`);
  }
}

function missing(what: string): StoreError {
  return new StoreError("STORE_CORRUPT", `blockstore.db: ${what} is missing although the height is stored`);
}
