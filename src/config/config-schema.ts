// Every key of config.toml: its codec, default, a one-line comment (written into the file and
// used by docs/configuration.md), and the `node` flag that overrides it. Names and defaults are
// Tendermint v0.34's; keys marked `rxbft` are rxbft's own additions. The order here is the
// order of the written file.
import type * as t from "io-ts";
import {
  anyString,
  bool,
  duration,
  hashHex,
  hostPort,
  integer,
  integerOrString,
  listenAddress,
  logLevel,
  moniker,
  nodeIdList,
  nonEmptyString,
  oneOf,
  peerList,
  proxyApp,
  serverList,
  stringArray,
} from "./config-codecs.js";

/**
 * heap_growing_percent's default. V8 lets the old generation grow to up to 4× its live size on a
 * machine with memory to spare; under load that slack, and the native memory of the dead Buffers
 * it leaves uncollected, was half the node's RSS. 100 (a factor of 2) cut RSS by a fifth for about
 * the main-thread GC time V8's own rule spent; 50 cut more but doubled the full collections'
 * pauses (docs/configuration.md "Memory").
 */
export const HEAP_GROWING_PERCENT_DEFAULT = 100;

/**
 * idle_heap_collect_seconds' default. V8's own memory reducer took the heap down 30–55 s after a
 * load; a collection once the mempool has been empty this long gives it back sooner, and a few
 * seconds keep the gap between two bursts of txs from paying for one (streams/idle-heap.ts). The same
 * step writes out LevelDB's memtables and lets the native write batches go (src/level/idle-release.ts).
 */
export const IDLE_HEAP_COLLECT_SECONDS_DEFAULT = 5;

/**
 * db_tx_index_max_file_size_mb's default, LevelDB's smallest table. tx_index.db's compactions read
 * its tables through mmap and the pages touched stay in RSS while a table is open, so its mapped
 * share is bounded by (db_max_open_files − 10) × this: 90 MB, where 2 MB tables let it grow towards
 * 180 MB over a ten-minute load (docs/storage.md "Memory").
 */
export const DB_TX_INDEX_MAX_FILE_SIZE_MB_DEFAULT = 1;

/**
 * db_tx_index_write_buffer_size_mb's default. tx_index.db takes random keys (tx homes, event
 * values) every height, so each memtable it flushes spans its whole key range and LevelDB's next
 * compaction rewrites the level below it whole: the bytes compacted per tx fall as the memtable
 * grows. 16 MB against the shared 4 took its compaction to ~0.4x the bytes per committed tx and
 * the node's other threads' CPU per tx to 0.85-0.86x under the load bench, for up to two memtables of
 * this size while under load (docs/storage.md "Fifteenth pass").
 */
export const DB_TX_INDEX_WRITE_BUFFER_SIZE_MB_DEFAULT = 16;

/**
 * db_tx_index_max_open_files' default. An open table keeps the pages of it that were read mapped
 * (its index and filter blocks and the pages the kernel maps around them, ~70 KB of a 1-MB table),
 * so the open tables' share of RSS grows with the index until this − 10 of them are open. What
 * reads tx_index.db under load is a height's lookup of its txs' earlier homes, and with the home
 * filter (db_tx_index_home_filter_mb) only its false positives are read: 0.1 % of new txs at 6M txs
 * indexed with 16 MB, so a lookup that opens a table is rare and the table cache no longer decides
 * a height's index time. With 100 the mapped tables stop growing at ~6 MB, near 2M txs indexed
 * (three to four minutes at 10,000 tx/s); with 400 they grew to 18 MB over ten minutes and on
 * (docs/storage.md, "Twenty-third pass"). Without the filter, or once it saturates (8 % false
 * positives at 25M txs with 16 MB), every home is read again and a lookup past the open tables
 * opens one: 400 then kept a 46k-tx height's index at ~2 s where 100 took ~7.5 s ("Nineteenth pass").
 */
export const DB_TX_INDEX_MAX_OPEN_FILES_DEFAULT = 100;

/**
 * db_tx_index_home_filter_mb's default: the in-memory filter of tx_index.db's home keys
 * (src/store/indexer/home-filter.ts), which answers "never indexed" for a new tx without a LevelDB
 * lookup. Those lookups, one per committed tx, touched the index and filter blocks of the
 * database's mmapped tables, and the pages stayed resident: the file-backed growth of RSS under a
 * steady load (docs/storage.md "Memory"). 16 MB is 128M bits: with 4 probes a key, a new tx is
 * looked up anyway 0.1 % of the time at 6M txs indexed (ten minutes at 10,000 tx/s), 1 % at 13M,
 * 8 % at 25M. Its pages are taken as bits are set, all of them within the first few thousand txs.
 */
export const DB_TX_INDEX_HOME_FILTER_MB_DEFAULT = 16;

/** How a value is written into TOML. */
export type KeyKind = "string" | "bool" | "int" | "duration" | "string-list" | "int-as-string";

export interface KeySpec<A> {
  codec: t.Type<A, unknown, unknown>;
  default: A;
  kind: KeyKind;
  /** One line for the file and the docs. */
  doc: string;
  /** The `rxbft node` flag that overrides this key (without the leading dashes). */
  flag?: string;
  /** rxbft's own key, not Tendermint's. */
  rxbft?: boolean;
}

/** Any key's spec, for tables of keys of different types. */
export interface AnyKeySpec extends Omit<KeySpec<unknown>, "codec"> {
  codec: t.Mixed;
}

function key<A>(
  kind: KeyKind,
  codec: t.Type<A, unknown, unknown>,
  def: A,
  doc: string,
  extra: { flag?: string; rxbft?: boolean } = {},
): KeySpec<A> {
  return { codec, default: def, kind, doc, ...extra };
}

export const BASE_KEYS = {
  proxy_app: key(
    "string",
    proxyApp,
    "tcp://127.0.0.1:26658",
    "ABCI application: a tcp:// or unix:// address, or kvstore, persistent_kvstore, counter, counter_serial or noop to run one in-process",
    { flag: "proxy_app" },
  ),
  moniker: key(
    "string",
    moniker,
    "anonymous",
    "A name for this node, shown to peers (defaults to the host name)",
    { flag: "moniker" },
  ),
  fast_sync: key("bool", bool, true, "Catch up by downloading blocks in bulk before joining consensus", {
    flag: "fast_sync",
  }),
  db_backend: key(
    "string",
    oneOf(["goleveldb", "cleveldb"], " (rxbft stores both in LevelDB)"),
    "goleveldb",
    "Database backend; rxbft keeps every store in LevelDB (classic-level) under either name",
    { flag: "db_backend" },
  ),
  db_dir: key(
    "string",
    nonEmptyString("data"),
    "data",
    "Directory of the databases and the consensus log, relative to the home",
    { flag: "db_dir" },
  ),
  db_cache_size_mb: key(
    "int",
    integer(0, 4096),
    8,
    "LevelDB block cache of each database (blockstore, state, tx_index and tx_index_bodies, the in-process kvstore), in MB",
    { rxbft: true },
  ),
  db_write_buffer_size_mb: key(
    "int",
    integer(1, 1024),
    4,
    "LevelDB memtable size of each database, in MB (up to two are held while one is flushed)",
    { rxbft: true },
  ),
  db_max_open_files: key(
    "int",
    integer(74, 50000),
    100,
    "LevelDB tables each database keeps open, each with its index and filter blocks in memory",
    { rxbft: true },
  ),
  db_max_file_size_mb: key("int", integer(1, 1024), 2, "LevelDB table file size of each database, in MB", {
    rxbft: true,
  }),
  db_tx_index_max_file_size_mb: key(
    "int",
    integer(1, 1024),
    DB_TX_INDEX_MAX_FILE_SIZE_MB_DEFAULT,
    "LevelDB table file size of tx_index.db alone, in MB: its compactions read its tables through mmap, so its open tables' mapped pages are bounded by (db_max_open_files - 10) times this",
    { rxbft: true },
  ),
  db_tx_index_write_buffer_size_mb: key(
    "int",
    integer(1, 1024),
    DB_TX_INDEX_WRITE_BUFFER_SIZE_MB_DEFAULT,
    "LevelDB memtable size of tx_index.db alone, in MB (up to two are held while one is flushed): its keys are random, so a larger memtable means fewer bytes compacted per indexed tx",
    { rxbft: true },
  ),
  db_tx_index_max_open_files: key(
    "int",
    integer(74, 50000),
    DB_TX_INDEX_MAX_OPEN_FILES_DEFAULT,
    "LevelDB tables tx_index.db alone keeps open (each with its index and filter blocks mapped, ~70 KB of RSS a table): with the home filter a height reads only the homes it may hold; without it (db_tx_index_home_filter_mb = 0) every tx's home is read, and past this many tables each read opens one: raise it then (400)",
    { rxbft: true },
  ),
  db_tx_index_home_filter_mb: key(
    "int",
    integer(0, 256),
    DB_TX_INDEX_HOME_FILTER_MB_DEFAULT,
    "In-memory filter of tx_index.db's home keys, in MB (0: none): a height's index asks LevelDB for a tx's earlier home only when the filter says it may exist, so a new tx costs no read of the database's mapped tables; fixed size, its false positives rise as the index grows (0.1 % at 6M txs with 16 MB)",
    { rxbft: true },
  ),
  heap_growing_percent: key(
    "int",
    integer(0, 400),
    HEAP_GROWING_PERCENT_DEFAULT,
    "How far V8's heap may grow past its live size before the next full collection, in percent; 0 leaves V8's own rule (up to 300 %)",
    { rxbft: true },
  ),
  idle_heap_collect_seconds: key(
    "int",
    integer(0, 3600),
    IDLE_HEAP_COLLECT_SECONDS_DEFAULT,
    "Seconds the mempool must stay empty before V8's heap, if still 32 MB above where it settled, is collected once to give the load's memory back (the start counts as a load), LevelDB's memtables written out and the databases' native write batches let go right before; 0 leaves it to V8's memory reducer",
    { rxbft: true },
  ),
  log_level: key(
    "string",
    logLevel,
    "info",
    'Log level: debug, info, warn, error or none, or per module like "consensus:debug,p2p:none,*:info"',
    { flag: "log_level" },
  ),
  log_format: key(
    "string",
    oneOf(["plain", "json"]),
    "plain",
    "Log format: plain (one line per entry) or json",
  ),
  genesis_file: key(
    "string",
    nonEmptyString("config/genesis.json"),
    "config/genesis.json",
    "Genesis file, relative to the home",
  ),
  priv_validator_key_file: key(
    "string",
    nonEmptyString("config/priv_validator_key.json"),
    "config/priv_validator_key.json",
    "Validator private key file, relative to the home",
  ),
  priv_validator_state_file: key(
    "string",
    nonEmptyString("data/priv_validator_state.json"),
    "data/priv_validator_state.json",
    "Validator last-sign state file, relative to the home",
  ),
  priv_validator_laddr: key(
    "string",
    listenAddress("tcp://127.0.0.1:26659", { allowEmpty: true, unix: true }),
    "",
    "Address on which to listen for a remote signer (rxbft signer, tmkms, Horcrux) to dial in; empty signs with the key file",
    { flag: "priv_validator_laddr" },
  ),
  node_key_file: key(
    "string",
    nonEmptyString("config/node_key.json"),
    "config/node_key.json",
    "Node p2p identity key file, relative to the home",
  ),
  abci: key(
    "string",
    oneOf(["socket"], " (rxbft has no gRPC ABCI client)"),
    "socket",
    "ABCI transport to the application: socket",
    { flag: "abci" },
  ),
  filter_peers: key(
    "bool",
    bool,
    false,
    "Ask the application (abci_query /p2p/filter/...) whether to accept each peer",
  ),
} satisfies Record<string, AnyKeySpec>;

export const RPC_KEYS = {
  laddr: key(
    "string",
    listenAddress("tcp://127.0.0.1:26657", { unix: true }),
    "tcp://127.0.0.1:26657",
    "Address the RPC server listens on",
    { flag: "rpc.laddr" },
  ),
  cors_allowed_origins: key(
    "string-list",
    stringArray('["*"]'),
    [],
    'Origins allowed to make cross-domain requests; ["*"] allows all, [] disables CORS',
  ),
  cors_allowed_methods: key(
    "string-list",
    stringArray('["HEAD", "GET", "POST"]'),
    ["HEAD", "GET", "POST"],
    "Methods allowed in cross-domain requests",
  ),
  cors_allowed_headers: key(
    "string-list",
    stringArray('["Origin", "Accept"]'),
    ["Origin", "Accept", "Content-Type", "X-Requested-With", "X-Server-Time"],
    "Headers allowed in cross-domain requests",
  ),
  grpc_laddr: key(
    "string",
    listenAddress("tcp://127.0.0.1:36658", { allowEmpty: true, unix: true }),
    "",
    "Address of the gRPC broadcast API; empty disables it (rxbft does not serve it)",
    { flag: "rpc.grpc_laddr" },
  ),
  grpc_max_open_connections: key(
    "int",
    integer(0),
    900,
    "Most simultaneous gRPC connections; 0 is unlimited",
  ),
  unsafe: key("bool", bool, false, "Serve the unsafe routes (dial_seeds, dial_peers, unsafe_flush_mempool)", {
    flag: "rpc.unsafe",
  }),
  max_open_connections: key(
    "int",
    integer(0),
    900,
    "Most simultaneous RPC connections (HTTP and WebSocket); 0 is unlimited",
  ),
  max_subscription_clients: key("int", integer(0), 100, "Most WebSocket clients holding subscriptions"),
  max_subscriptions_per_client: key("int", integer(0), 5, "Most subscriptions one client may hold"),
  experimental_subscription_buffer_size: key(
    "int",
    integer(100),
    200,
    "Events buffered per subscription before the client is too slow (at least 100)",
  ),
  experimental_websocket_write_buffer_size: key(
    "int",
    integer(0),
    200,
    "Messages buffered per WebSocket connection (at least the subscription buffer size)",
  ),
  experimental_close_on_slow_client: key(
    "bool",
    bool,
    false,
    "Close a WebSocket client that falls behind instead of dropping its events",
  ),
  timeout_broadcast_tx_commit: key(
    "duration",
    duration,
    10_000,
    "How long broadcast_tx_commit waits for the transaction to be committed",
  ),
  max_body_bytes: key("int", integer(0), 1_000_000, "Largest request body in bytes"),
  max_header_bytes: key("int", integer(0), 1_048_576, "Largest request header in bytes"),
  tls_cert_file: key(
    "string",
    anyString(),
    "",
    "TLS certificate (relative to config/); with tls_key_file, serves HTTPS and WSS",
  ),
  tls_key_file: key("string", anyString(), "", "TLS private key (relative to config/)"),
  pprof_laddr: key(
    "string",
    hostPort("localhost:6060", true),
    "",
    "Address of the profiling server; empty disables it",
    { flag: "rpc.pprof_laddr" },
  ),
  compat: key(
    "string",
    oneOf(["seed", "tendermint"]),
    "seed",
    'RPC result form: "seed" (the specification\'s) or "tendermint" (v0.34\'s exact JSON, for CosmJS)',
    { flag: "rpc.compat", rxbft: true },
  ),
} satisfies Record<string, AnyKeySpec>;

export const P2P_KEYS = {
  laddr: key(
    "string",
    listenAddress("tcp://0.0.0.0:26656"),
    "tcp://0.0.0.0:26656",
    "Address to listen on for peers",
    { flag: "p2p.laddr" },
  ),
  external_address: key(
    "string",
    hostPort("203.0.113.7:26656", true),
    "",
    "Address to advertise to peers; empty uses laddr",
    { flag: "p2p.external-address" },
  ),
  seeds: key("string", peerList, "", "Comma-separated seed nodes, id@host:port", { flag: "p2p.seeds" }),
  persistent_peers: key("string", peerList, "", "Comma-separated peers to stay connected to, id@host:port", {
    flag: "p2p.persistent_peers",
  }),
  upnp: key("bool", bool, false, "Use UPnP to open the listening port", { flag: "p2p.upnp" }),
  addr_book_file: key(
    "string",
    nonEmptyString("config/addrbook.json"),
    "config/addrbook.json",
    "Address book file, relative to the home",
  ),
  addr_book_strict: key(
    "bool",
    bool,
    true,
    "Only accept routable addresses; set false to run several nodes on one machine",
  ),
  max_num_inbound_peers: key("int", integer(0), 40, "Most inbound peers"),
  max_num_outbound_peers: key("int", integer(0), 10, "Most outbound peers"),
  unconditional_peer_ids: key(
    "string",
    nodeIdList,
    "",
    "Comma-separated node IDs allowed past the peer limits",
    { flag: "p2p.unconditional_peer_ids" },
  ),
  persistent_peers_max_dial_period: key(
    "duration",
    duration,
    0,
    "Longest pause between dials of a persistent peer; 0s keeps backing off",
  ),
  flush_throttle_timeout: key(
    "duration",
    duration,
    100,
    "How long to gather messages before flushing a connection",
  ),
  max_packet_msg_payload_size: key("int", integer(1), 1024, "Largest payload of one packet in bytes"),
  send_rate: key("int", integer(0), 5_120_000, "Most bytes per second sent to one peer"),
  recv_rate: key("int", integer(0), 5_120_000, "Most bytes per second received from one peer"),
  pex: key("bool", bool, true, "Exchange peer addresses (PEX)", { flag: "p2p.pex" }),
  seed_mode: key("bool", bool, false, "Run as a seed: crawl the network, share addresses, then disconnect", {
    flag: "p2p.seed_mode",
  }),
  private_peer_ids: key("string", nodeIdList, "", "Comma-separated node IDs never gossiped to others", {
    flag: "p2p.private_peer_ids",
  }),
  allow_duplicate_ip: key("bool", bool, false, "Accept several peers from one IP address"),
  handshake_timeout: key("duration", duration, 20_000, "Time limit of the connection handshake"),
  dial_timeout: key("duration", duration, 3_000, "Time limit of a dial"),
} satisfies Record<string, AnyKeySpec>;

export const MEMPOOL_KEYS = {
  version: key("string", oneOf(["v0", "v1"]), "v0", "Mempool implementation: v0 (FIFO) or v1 (prioritised)"),
  recheck: key("bool", bool, true, "Re-check remaining transactions with the app after each block"),
  broadcast: key("bool", bool, true, "Gossip transactions to peers"),
  wal_dir: key("string", anyString(), "", "Mempool write-ahead log directory; empty disables it"),
  size: key("int", integer(0), 5000, "Most transactions in the mempool"),
  max_txs_bytes: key("int", integer(0), 1_073_741_824, "Most bytes of all transactions in the mempool"),
  cache_size: key("int", integer(0), 10_000, "Size of the cache of seen transactions"),
  "keep-invalid-txs-in-cache": key(
    "bool",
    bool,
    false,
    "Keep transactions that failed CheckTx in the cache so they are not re-checked",
  ),
  max_tx_bytes: key("int", integer(0), 1_048_576, "Largest single transaction in bytes"),
  max_batch_bytes: key("int", integer(0), 0, "Unused (kept for compatibility with Tendermint's file)"),
  "ttl-duration": key("duration", duration, 0, "Evict transactions older than this; 0s never evicts by age"),
  "ttl-num-blocks": key(
    "int",
    integer(0),
    0,
    "Evict transactions older than this many blocks; 0 never evicts by height",
  ),
  relay_hold: key(
    "duration",
    duration,
    0,
    "How long a transaction received from a peer waits before it is gossiped to our other peers, so that one committed meanwhile is never relayed; 0s relays at once, as Tendermint. Worth setting where every node is connected to every other (the sender already reached them all); in a partial mesh each hop adds this much to a transaction's way",
    { rxbft: true },
  ),
} satisfies Record<string, AnyKeySpec>;

export const STATESYNC_KEYS = {
  enable: key("bool", bool, false, "Start from a state-sync snapshot instead of replaying from genesis"),
  rpc_servers: key(
    "string",
    serverList,
    "",
    "Comma-separated RPC servers (at least two) for light-client verification",
  ),
  trust_height: key("int", integer(0), 0, "Trusted height for the light client"),
  trust_hash: key("string", hashHex, "", "Hash of the block at trust_height"),
  trust_period: key("duration", duration, 604_800_000, "How long a trusted header stays trusted"),
  discovery_time: key("duration", duration, 15_000, "Time spent discovering snapshots (0s, or at least 5s)"),
  temp_dir: key("string", anyString(), "", "Directory for snapshot chunks; empty uses the OS's"),
  chunk_request_timeout: key("duration", duration, 10_000, "Time limit of one chunk request (at least 5s)"),
  chunk_fetchers: key("int-as-string", integerOrString(0), 4, "Chunks fetched in parallel"),
} satisfies Record<string, AnyKeySpec>;

export const FASTSYNC_KEYS = {
  version: key(
    "string",
    oneOf(
      ["v0"],
      " (rxbft implements block sync v0, Tendermint v0.34's default; v1 and v2 are not supported)",
    ),
    "v0",
    "Block-sync protocol version: v0 (the only one rxbft implements)",
  ),
  fall_behind_heights: key(
    "int",
    integer(0),
    100,
    "A node in consensus more than this many heights behind the highest height its peers report returns to block sync (0: off)",
    { rxbft: true },
  ),
  serve_queued_bytes: key(
    "int",
    integer(1024),
    16 * 1024 * 1024,
    "Bytes of blocks queued to one peer before its next block request waits (one block always goes when none is queued)",
    { rxbft: true },
  ),
} satisfies Record<string, AnyKeySpec>;

export const CONSENSUS_KEYS = {
  wal_file: key(
    "string",
    nonEmptyString("data/cs.wal/wal"),
    "data/cs.wal/wal",
    "Consensus log, relative to the home",
  ),
  timeout_propose: key("duration", duration, 3_000, "How long to wait for a proposal before prevoting nil"),
  timeout_propose_delta: key("duration", duration, 500, "Added to timeout_propose each round"),
  timeout_prevote: key("duration", duration, 1_000, "How long to wait after +2/3 prevotes for anything"),
  timeout_prevote_delta: key("duration", duration, 500, "Added to timeout_prevote each round"),
  timeout_precommit: key("duration", duration, 1_000, "How long to wait after +2/3 precommits for anything"),
  timeout_precommit_delta: key("duration", duration, 500, "Added to timeout_precommit each round"),
  timeout_commit: key(
    "duration",
    duration,
    1_000,
    "How long to wait after a commit before starting the next height",
  ),
  double_sign_check_height: key(
    "int",
    integer(0),
    10,
    "Heights to look back for this validator's signatures before signing; 0 disables (rxbft: on by default, Tendermint's default is 0)",
    { flag: "consensus.double_sign_check_height" },
  ),
  skip_timeout_commit: key("bool", bool, false, "Start the next height as soon as all precommits are in"),
  create_empty_blocks: key("bool", bool, true, "Make blocks with no transactions", {
    flag: "consensus.create_empty_blocks",
  }),
  create_empty_blocks_interval: key(
    "duration",
    duration,
    0,
    "Make an empty block at this interval even when create_empty_blocks is false; 0s disables",
    { flag: "consensus.create_empty_blocks_interval" },
  ),
  peer_gossip_sleep_duration: key(
    "duration",
    duration,
    100,
    "Pause of the gossip routines when there is nothing to send",
  ),
  peer_query_maj23_sleep_duration: key(
    "duration",
    duration,
    2_000,
    "Interval of asking peers for +2/3 majorities",
  ),
} satisfies Record<string, AnyKeySpec>;

export const STORAGE_KEYS = {
  discard_abci_responses: key(
    "bool",
    bool,
    false,
    "Do not keep ABCI responses (block_results then fails for old heights)",
  ),
} satisfies Record<string, AnyKeySpec>;

export const TX_INDEX_KEYS = {
  indexer: key(
    "string",
    oneOf(["null", "kv", "psql"]),
    "kv",
    'Transaction indexer: "kv" (tx_index.db and tx_index_bodies.db), "psql" (PostgreSQL, see docs/indexing.md) or "null" (off)',
  ),
  "psql-conn": key(
    "string",
    anyString(),
    "",
    'PostgreSQL URL for indexer = "psql": postgresql://user:password@host:port/db?sslmode=disable',
  ),
} satisfies Record<string, AnyKeySpec>;

export const INSTRUMENTATION_KEYS = {
  prometheus: key("bool", bool, false, "Serve Prometheus metrics"),
  prometheus_listen_addr: key("string", hostPort(":26660", false), ":26660", "Address of the metrics server"),
  max_open_connections: key("int", integer(0), 3, "Most simultaneous metrics connections; 0 is unlimited"),
  namespace: key("string", nonEmptyString("tendermint"), "tendermint", "Prefix of every metric name"),
} satisfies Record<string, AnyKeySpec>;

/** Sections in file order; "" holds the top-level (base) keys. */
export const SCHEMA = {
  "": BASE_KEYS,
  rpc: RPC_KEYS,
  p2p: P2P_KEYS,
  mempool: MEMPOOL_KEYS,
  statesync: STATESYNC_KEYS,
  fastsync: FASTSYNC_KEYS,
  consensus: CONSENSUS_KEYS,
  storage: STORAGE_KEYS,
  tx_index: TX_INDEX_KEYS,
  instrumentation: INSTRUMENTATION_KEYS,
} as const;

export type SectionName = Exclude<keyof typeof SCHEMA, "">;
export const SECTION_NAMES = Object.keys(SCHEMA).filter((name) => name !== "") as SectionName[];

/** One line above each section in the written file. */
export const SECTION_DOCS: Record<keyof typeof SCHEMA, string> = {
  "": "Base settings",
  rpc: "RPC server: JSON-RPC over HTTP(S) and WebSocket",
  p2p: "Peer-to-peer networking",
  mempool: "Mempool of unconfirmed transactions",
  statesync: "State sync: start from an application snapshot",
  fastsync: "Fast sync (block sync): catch up by downloading blocks",
  consensus: "Consensus timeouts and block production (durations in Go form: 3s, 500ms, 1m30s)",
  storage: "Storage of block results",
  tx_index: "Transaction indexer",
  instrumentation: "Prometheus metrics",
};

type ValuesOf<S> = { -readonly [K in keyof S]: S[K] extends KeySpec<infer A> ? A : never };

/** The whole configuration, with config.toml's names; durations are milliseconds. */
export type NodeConfig = ValuesOf<typeof BASE_KEYS> & {
  rpc: ValuesOf<typeof RPC_KEYS>;
  p2p: ValuesOf<typeof P2P_KEYS>;
  mempool: ValuesOf<typeof MEMPOOL_KEYS>;
  statesync: ValuesOf<typeof STATESYNC_KEYS>;
  fastsync: ValuesOf<typeof FASTSYNC_KEYS>;
  consensus: ValuesOf<typeof CONSENSUS_KEYS>;
  storage: ValuesOf<typeof STORAGE_KEYS>;
  tx_index: ValuesOf<typeof TX_INDEX_KEYS>;
  instrumentation: ValuesOf<typeof INSTRUMENTATION_KEYS>;
};

/** Every key as a list: `name` is "section.key" (or "key" for base keys). */
export function allKeys(): { section: keyof typeof SCHEMA; key: string; name: string; spec: AnyKeySpec }[] {
  return Object.entries(SCHEMA).flatMap(([section, keys]) =>
    Object.entries(keys as Record<string, AnyKeySpec>).map(([name, spec]) => ({
      section: section as keyof typeof SCHEMA,
      key: name,
      name: section === "" ? name : `${section}.${name}`,
      spec,
    })),
  );
}
