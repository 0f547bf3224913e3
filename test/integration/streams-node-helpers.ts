// Helpers of the streams tests: a fresh single-validator home with fast timeouts, prepared for
// startNode as `rxbft node` prepares it.
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { initHome } from "../../src/cli/init-home.js";
import { createLogger } from "../../src/logger/index.js";
import { type PreparedNode, prepareNode } from "../../streams/boot/prepare-home.js";

export const FAST_TIMEOUTS = {
  "consensus.timeout_commit": "50ms",
  "consensus.timeout_propose": "500ms",
  "consensus.timeout_prevote": "200ms",
  "consensus.timeout_precommit": "200ms",
};

export function freshHome(prefix = "rxbft-streams-"): string {
  const home = mkdtempSync(join(tmpdir(), prefix));
  initHome(home, { chainId: "streams-test" }, createLogger({ level: "none" }));
  return home;
}

/** Logs go to stderr at STREAMS_LOG's level ("none" by default). */
export function prepare(home: string, overrides: Record<string, string | boolean> = {}): PreparedNode {
  return prepareNode({
    home,
    overrides: {
      proxy_app: "kvstore",
      log_level: process.env.STREAMS_LOG ?? "none",
      // an ephemeral loopback p2p port: tests run in parallel
      "p2p.laddr": "tcp://127.0.0.1:0",
      ...FAST_TIMEOUTS,
      ...overrides,
    },
    logDestination: { write: (line: string) => process.stderr.write(line) },
  });
}
