// tx_index.indexer = "psql": the height index in PostgreSQL (v0.34's schema, psql-schema.ts),
// read back for tx, tx_search and block_search through the shared planner and executor.
//
// Writing never stops consensus. While PostgreSQL answers, each committed height is written in
// one transaction before indexHeight resolves (so a client that saw a Tx event finds the tx, as
// with the kv index). When a write fails or takes longer than liveWriteTimeoutMs, the indexer
// turns "lagging": indexHeight only records the newest committed height and returns, and one
// catch-up loop retries with backoff, then indexes the heights PostgreSQL lacks from the block
// and state stores, in ascending order, in bounded batches, logging progress. Heights already
// there are skipped (writeHeight is idempotent), so a crash or a lost connection anywhere never
// loses or duplicates a height. Searches while PostgreSQL is unreachable fail with
// INDEX_UNAVAILABLE naming the indexer; they answer again once it is back.
import pg from "pg";
import type { Logger } from "../../../logger/index.js";
import type { TxResult } from "../../../wire/generated/tendermint/abci/types.js";
import { StoreError } from "../../errors.js";
import { readUint64 } from "../../key-bytes.js";
import type { BlockIndexReader, HeightIndexer, TxIndexReader } from "../event-indexer.js";
import type { HeightIndexInput } from "../height-index-input.js";
import { DEFAULT_SEARCH_BUDGET, executeSearch, type SearchBudget } from "../search-executor.js";
import { checkConnUrl, errorText, PSQL_CONN_KEY, redactConnUrl } from "./psql-connection.js";
import { heightRows, writeHeight } from "./psql-height-writer.js";
import { ensureSchema } from "./psql-schema.js";
import { psqlSearchSpaces } from "./psql-search-space.js";

export interface PsqlIndexerOptions {
  /** [tx_index] psql-conn (URL form). */
  conn: string;
  /** Written into blocks.chain_id; searches read only this chain's rows. */
  chainId: string;
  logger: Logger;
  /** A height's index input from the block and state stores; undefined when pruned. */
  loadHeight(height: bigint): Promise<HeightIndexInput | undefined>;
  /** The lowest height the stores hold (the block store's base; 0 when empty). */
  baseHeight(): bigint;
  budget?: SearchBudget;
  /** Longest a live write holds up the commit before the indexer turns lagging (default 10 s). */
  liveWriteTimeoutMs?: number;
  /** Heights per catch-up batch (default 100). */
  catchUpBatch?: number;
  /** Backoff between reconnect attempts (default 500 ms doubling to 5 s). */
  retryMinMs?: number;
  retryMaxMs?: number;
  /** Connection attempt timeout (default 5 s). */
  connectTimeoutMs?: number;
}

const max = (a: bigint, b: bigint) => (a > b ? a : b);

export class PsqlIndexer implements HeightIndexer {
  readonly enabled = true;
  readonly txs: TxIndexReader;
  readonly blocks: BlockIndexReader;
  readonly #pool: pg.Pool;
  readonly #options: PsqlIndexerOptions;
  readonly #log: Logger;
  /** Every height up to this one is in PostgreSQL (from the stores' base). */
  #indexed = 0n;
  /** The newest committed height the indexer was told of. */
  #target = 0n;
  /** Live writes are skipped while the catch-up loop owns the order. */
  #lagging = false;
  /** Why PostgreSQL is considered unreachable, or undefined while it answers. */
  #down: string | undefined;
  #loop: Promise<void> | undefined;
  #closed = false;
  /** Waiting for PostgreSQL to fail (catchUp returns then). */
  #onDown: (() => void)[] = [];
  /** Ends the loop's backoff wait at once when the indexer closes. */
  #wake: (() => void) | undefined;

  private constructor(pool: pg.Pool, options: PsqlIndexerOptions) {
    this.#pool = pool;
    this.#options = options;
    this.#log = options.logger;
    const budget = options.budget ?? DEFAULT_SEARCH_BUDGET;
    const spaces = psqlSearchSpaces(pool, options.chainId);
    this.txs = {
      enabled: true,
      getByHash: (hash) =>
        this.#read(async () => {
          const position = await spaces.txs.positionOfHash!(hash);
          return position === undefined ? undefined : (await spaces.loadTxs([position]))[0];
        }),
      search: (request) =>
        this.#read(async () => {
          const page = await executeSearch(spaces.txs, request, budget);
          const txs = await spaces.loadTxs(page.positions);
          return { total: page.total, txs: txs.filter((t): t is TxResult => t !== undefined) };
        }),
    };
    this.blocks = {
      enabled: true,
      has: (height) =>
        this.#read(async () => {
          const result = await pool.query({
            text: "SELECT 1 FROM blocks WHERE chain_id = $1 AND height = $2",
            values: [options.chainId, height.toString()],
          });
          return result.rows.length > 0;
        }),
      search: (request) =>
        this.#read(async () => {
          const page = await executeSearch(spaces.blocks, request, budget);
          return { total: page.total, heights: page.positions.map((p) => readUint64(p, 0)) };
        }),
    };
  }

  /**
   * Connects, creates the schema where absent and finds how far PostgreSQL is indexed.
   * Unreachable: a STORE_OPEN_FAILED error naming psql-conn (its password hidden).
   */
  static async open(options: PsqlIndexerOptions): Promise<PsqlIndexer> {
    const conn = checkConnUrl(options.conn);
    const pool = new pg.Pool({
      connectionString: conn,
      max: 4,
      connectionTimeoutMillis: options.connectTimeoutMs ?? 5_000,
      idleTimeoutMillis: 10_000,
      application_name: "rxbft",
    });
    // An idle connection the server drops is reported here; without a listener it would crash the process.
    pool.on("error", (error) => {
      options.logger.warn("psql indexer: an idle PostgreSQL connection failed", {
        err: errorText(error, conn),
      });
    });
    const indexer = new PsqlIndexer(pool, options);
    try {
      const client = await pool.connect();
      const ignore = () => {}; // the failing statement reports it (see #write)
      client.on("error", ignore);
      try {
        await ensureSchema(client);
      } finally {
        client.removeListener("error", ignore);
        client.release();
      }
      indexer.#indexed = await indexer.#contiguousHeight();
    } catch (error) {
      await pool.end().catch(() => {});
      throw new StoreError(
        "STORE_OPEN_FAILED",
        `${PSQL_CONN_KEY}: cannot use PostgreSQL at ${redactConnUrl(conn)}: ${errorText(error, conn)}`,
        { cause: error },
      );
    }
    options.logger.info("psql indexer connected", {
      server: redactConnUrl(conn),
      chain_id: options.chainId,
      indexed_height: indexer.#indexed,
    });
    return indexer;
  }

  indexedHeight(): bigint {
    return this.#indexed;
  }

  /** Why searches fail now, or undefined while PostgreSQL answers. */
  unavailable(): string | undefined {
    return this.#down;
  }

  async indexHeight(input: HeightIndexInput): Promise<void> {
    this.#target = max(this.#target, input.height);
    if (this.#lagging || this.#closed) return;
    if (input.height > this.#nextHeight()) {
      // A height PostgreSQL lacks lies below this one: the loop writes them in order.
      this.#startLagging();
      return;
    }
    const write = this.#write(input);
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<"timeout">((resolve) => {
      timer = setTimeout(() => resolve("timeout"), this.#options.liveWriteTimeoutMs ?? 10_000);
    });
    try {
      const outcome = await Promise.race([write.then(() => "written" as const), timeout]);
      if (outcome === "timeout") {
        this.#log.warn(
          "psql indexer: PostgreSQL is slow; consensus goes on and the height is indexed later",
          {
            height: input.height,
          },
        );
        // The write may still land; the loop skips it then, or writes it again otherwise.
        write.catch(() => {});
        this.#startLagging();
        return;
      }
      if (input.height === this.#nextHeight()) this.#indexed = input.height;
    } catch (error) {
      this.#markDown(error);
      this.#startLagging();
    } finally {
      clearTimeout(timer);
    }
  }

  /**
   * Indexes every height PostgreSQL lacks up to `toHeight` (start-up: the stores' height), then
   * returns findings for the start-up log. When PostgreSQL fails meanwhile, the rest is left to
   * the background loop and the start goes on.
   */
  async catchUp(toHeight: bigint): Promise<string[]> {
    this.#target = max(this.#target, toHeight);
    if (this.#indexed >= this.#target) return [`psql index at ${this.#indexed}: nothing to index`];
    const from = this.#indexed;
    this.#startLagging();
    // Until caught up, or until PostgreSQL fails: then the loop goes on in the background.
    await Promise.race([this.#loop, new Promise<void>((resolve) => this.#onDown.push(resolve))]);
    return this.#indexed >= toHeight
      ? [`psql index at ${from}, stores at ${toHeight}: indexed heights ${from + 1n}..${toHeight}`]
      : [`psql index at ${this.#indexed} of ${toHeight}: the rest is indexed when PostgreSQL answers again`];
  }

  async close(): Promise<void> {
    this.#closed = true;
    this.#wake?.();
    await this.#loop;
    await this.#pool.end();
  }

  /** The lowest height PostgreSQL lacks (as far as the contiguous count knows). */
  #nextHeight(): bigint {
    return max(this.#indexed + 1n, this.#firstHeight());
  }

  #firstHeight(): bigint {
    const base = this.#options.baseHeight();
    return base > 1n ? base : 1n;
  }

  async #write(input: HeightIndexInput): Promise<boolean> {
    const client = await this.#pool.connect();
    // A checked-out client whose server goes away between two statements emits 'error' on
    // itself; without a listener that would end the process. The failure also reaches the
    // next statement, which is where it is handled.
    let lost: Error | undefined;
    const onError = (error: Error) => {
      lost = error;
    };
    client.on("error", onError);
    try {
      const written = await writeHeight(client, this.#options.chainId, heightRows(input));
      client.removeListener("error", onError);
      client.release(lost);
      return written;
    } catch (error) {
      client.removeListener("error", onError);
      client.release(error as Error);
      throw error;
    }
  }

  /** The highest height h such that every height from the stores' base to h is in PostgreSQL. */
  async #contiguousHeight(): Promise<bigint> {
    const first = this.#firstHeight();
    const result = await this.#pool.query<{ top: string | null; n: string }>({
      text: "SELECT max(height)::text AS top, count(*)::text AS n FROM blocks WHERE chain_id = $1 AND height >= $2",
      values: [this.#options.chainId, first.toString()],
    });
    const top = result.rows[0]?.top == null ? 0n : BigInt(result.rows[0].top);
    if (top === 0n) return first - 1n;
    if (BigInt(result.rows[0]!.n) === top - first + 1n) return top;
    const gap = await this.#pool.query<{ missing: string }>({
      text: `SELECT min(h)::text AS missing FROM generate_series($2::bigint, $3::bigint) AS h
        WHERE NOT EXISTS (SELECT 1 FROM blocks WHERE chain_id = $1 AND height = h)`,
      values: [this.#options.chainId, first.toString(), top.toString()],
    });
    return BigInt(gap.rows[0]!.missing) - 1n;
  }

  #startLagging(): void {
    this.#lagging = true;
    this.#loop ??= this.#catchUpLoop().finally(() => {
      this.#loop = undefined;
    });
  }

  #markDown(error: unknown): void {
    const reason = errorText(error, this.#options.conn);
    if (this.#down === undefined) {
      this.#log.error(
        "psql indexer: PostgreSQL is unreachable; consensus goes on, missing heights are indexed when it is back",
        {
          err: reason,
        },
      );
    }
    this.#down = reason;
    for (const resolve of this.#onDown.splice(0)) resolve();
  }

  #markUp(): void {
    if (this.#down === undefined) return;
    this.#down = undefined;
    this.#log.info("psql indexer: PostgreSQL answers again", {
      indexed_height: this.#indexed,
      target: this.#target,
    });
  }

  /** One loop at a time: reconnects, then indexes (indexed, target] in batches, in order. */
  async #catchUpLoop(): Promise<void> {
    const batch = BigInt(this.#options.catchUpBatch ?? 100);
    let backoff = this.#options.retryMinMs ?? 500;
    const startedAt = this.#indexed;
    let announced = false;
    while (!this.#closed && (this.#indexed < this.#target || this.#down !== undefined)) {
      try {
        if (this.#down !== undefined) await this.#pool.query("SELECT 1");
        this.#markUp();
        backoff = this.#options.retryMinMs ?? 500;
        if (this.#indexed < this.#target) {
          if (!announced) {
            this.#log.info("psql indexer: indexing the heights PostgreSQL lacks", {
              from: this.#indexed + 1n,
              to: this.#target,
            });
            announced = true;
          }
          await this.#indexBatch(batch);
        }
      } catch (error) {
        this.#markDown(error);
        if (this.#closed) break;
        await new Promise<void>((resolve) => {
          const timer = setTimeout(resolve, backoff);
          this.#wake = () => {
            clearTimeout(timer);
            resolve();
          };
        });
        this.#wake = undefined;
        backoff = Math.min(backoff * 2, this.#options.retryMaxMs ?? 5_000);
      }
    }
    // Synchronous from the loop's last check to here: a height told meanwhile is in #target.
    if (!this.#closed) {
      this.#lagging = false;
      if (announced) {
        this.#log.info("psql indexer: caught up", { from: startedAt + 1n, to: this.#indexed });
      }
    }
  }

  async #indexBatch(batch: bigint): Promise<void> {
    const from = this.#nextHeight();
    let to = from + batch - 1n;
    if (to > this.#target) to = this.#target;
    if (from > to) {
      // Nothing the stores hold is missing (the target is below their base).
      this.#indexed = this.#target;
      return;
    }
    const present = await this.#pool.query<{ height: string }>({
      text: "SELECT height::text AS height FROM blocks WHERE chain_id = $1 AND height BETWEEN $2 AND $3",
      values: [this.#options.chainId, from.toString(), to.toString()],
    });
    const there = new Set(present.rows.map((r) => r.height));
    let written = 0;
    for (let height = from; height <= to && !this.#closed; height++) {
      if (!there.has(height.toString())) {
        const input = await this.#options.loadHeight(height);
        if (input === undefined) {
          this.#log.warn("psql indexer: height cannot be indexed: its block or ABCI responses are gone", {
            height,
          });
        } else if (await this.#write(input)) {
          written++;
        }
      }
      this.#indexed = height;
    }
    this.#log.info("psql indexer: progress", {
      heights: `${from}..${to}`,
      written,
      indexed_height: this.#indexed,
      remaining: this.#target - this.#indexed,
    });
  }

  /** Runs a read; while PostgreSQL is unreachable it fails at once with INDEX_UNAVAILABLE. */
  async #read<T>(work: () => Promise<T>): Promise<T> {
    if (this.#down !== undefined) throw this.#unavailableError(this.#down);
    try {
      return await work();
    } catch (error) {
      if (error instanceof StoreError) throw error;
      const reason = errorText(error, this.#options.conn);
      if (!isConnectionError(error)) {
        throw new StoreError("INDEX_UNAVAILABLE", `the psql indexer failed: ${reason}`, { cause: error });
      }
      this.#markDown(error);
      this.#startLagging();
      throw this.#unavailableError(reason);
    }
  }

  #unavailableError(reason: string): StoreError {
    return new StoreError(
      "INDEX_UNAVAILABLE",
      `the psql indexer cannot answer: PostgreSQL is unreachable (${reason}); it answers again once PostgreSQL is back`,
    );
  }
}

/** Errors that mean the server or the connection is gone (not a bad query). */
function isConnectionError(error: unknown): boolean {
  const e = error as { code?: string; message?: string };
  const code = e?.code ?? "";
  if (["ECONNREFUSED", "ECONNRESET", "ETIMEDOUT", "EPIPE", "ENOTFOUND", "EHOSTUNREACH"].includes(code))
    return true;
  // SQLSTATE class 08 (connection exception), 57P0x (admin shutdown, crash shutdown, cannot connect now).
  if (code.startsWith("08") || code.startsWith("57P")) return true;
  const message = e?.message ?? "";
  return /Connection terminated|timeout exceeded when trying to connect|connect ECONNREFUSED|Client has encountered a connection error/i.test(
    message,
  );
}
