// Helpers of the streams tests: a fresh single-validator home with fast timeouts, prepared for
// startNode as `rxbft node` prepares it.
import { firstValueFrom } from "rxjs";
import { filter } from "rxjs/operators";
import { initHome } from "../../src/cli/init-home.js";
import { createLogger } from "../../src/logger/index.js";
import { type PreparedNode, prepareNode } from "../../streams/boot/prepare-home.js";
import { type StartNodeOptions, startNode } from "../../streams/node.js";
import { tempFolder } from "../fixtures/temp-folder.js";

export const FAST_TIMEOUTS = {
  "consensus.timeout_commit": "50ms",
  "consensus.timeout_propose": "500ms",
  "consensus.timeout_prevote": "200ms",
  "consensus.timeout_precommit": "200ms",
};

export function freshHome(prefix = "rxbft-streams-"): string {
  const home = tempFolder(prefix);
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

/**
 * Starts a node on `home` with `options`, submits `txs` txs, waits until it has passed
 * `untilHeight`, and stops it: one run of a recorded home (the replay tests run it twice, so the
 * second start exercises the restart rule).
 */
export async function runUntil(
  home: string,
  untilHeight: bigint,
  txs: number,
  options: StartNodeOptions,
): Promise<PreparedNode> {
  const prepared = prepare(home);
  try {
    const node = await startNode(prepared, { verifyWorkers: 0, rpc: false, ...options });
    for (let i = 0; i < txs; i++)
      await node.mempool.submit(new TextEncoder().encode(`k${untilHeight}-${i}=v${i}`));
    await firstValueFrom(node.consensusState$.pipe(filter((s) => s.height > untilHeight)));
    await node.stop();
    return prepared;
  } finally {
    prepared.lock.release();
  }
}
