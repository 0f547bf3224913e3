// Rules of config.toml that involve more than one key (Tendermint's ValidateBasic), reported as
// "[section] key: expected …, got …" lines.
import { splitList } from "./config-codecs.js";
import type { NodeConfig } from "./config-schema.js";
import { formatGoDuration, msToNanoseconds } from "./duration.js";

export interface CrossKeyProblem {
  /** "[section] key" or "key". */
  where: string;
  expected: string;
  actual: string;
}

export function crossKeyProblems(config: NodeConfig): CrossKeyProblem[] {
  const problems: CrossKeyProblem[] = [];
  const add = (where: string, expected: string, actual: unknown) =>
    problems.push({
      where,
      expected,
      actual: typeof actual === "string" ? JSON.stringify(actual) : String(actual),
    });
  const go = (ms: number) => formatGoDuration(msToNanoseconds(ms));

  const { rpc, statesync, tx_index } = config;
  if (tx_index.indexer === "psql" && !/^postgres(ql)?:\/\/./.test(tx_index["psql-conn"])) {
    // The value is not echoed: it may hold a password.
    problems.push({
      where: "[tx_index] psql-conn",
      expected: 'a URL postgresql://user:password@host:port/db when indexer = "psql"',
      actual: tx_index["psql-conn"] === "" ? '""' : "a value that is not a postgresql:// URL",
    });
  }
  if (rpc.experimental_websocket_write_buffer_size < rpc.experimental_subscription_buffer_size) {
    add(
      "[rpc] experimental_websocket_write_buffer_size",
      `at least experimental_subscription_buffer_size (${rpc.experimental_subscription_buffer_size})`,
      rpc.experimental_websocket_write_buffer_size,
    );
  }
  if ((rpc.tls_cert_file === "") !== (rpc.tls_key_file === "")) {
    const missing = rpc.tls_cert_file === "" ? "tls_cert_file" : "tls_key_file";
    add(`[rpc] ${missing}`, "a file, since the other TLS file is set (set both or neither)", "");
  }
  if (statesync.enable) {
    const servers = splitList(statesync.rpc_servers);
    if (servers.length < 2)
      add("[statesync] rpc_servers", "at least two servers when enable = true", statesync.rpc_servers);
    if (statesync.trust_height <= 0)
      add("[statesync] trust_height", "a height > 0 when enable = true", statesync.trust_height);
    if (statesync.trust_hash === "")
      add("[statesync] trust_hash", "a hex hash when enable = true", statesync.trust_hash);
    if (statesync.trust_period <= 0)
      add("[statesync] trust_period", "a duration > 0 when enable = true", go(statesync.trust_period));
    if (statesync.discovery_time !== 0 && statesync.discovery_time < 5_000) {
      add("[statesync] discovery_time", '"0s" or at least "5s"', go(statesync.discovery_time));
    }
    if (statesync.chunk_request_timeout < 5_000) {
      add("[statesync] chunk_request_timeout", 'at least "5s"', go(statesync.chunk_request_timeout));
    }
    if (statesync.chunk_fetchers <= 0)
      add("[statesync] chunk_fetchers", "at least 1 when enable = true", statesync.chunk_fetchers);
  }
  return problems;
}
