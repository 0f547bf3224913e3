// Reaching a context member a route needs, failing with a clear error when the node does not
// provide it (the route then answers "Internal error", never crashes the server).

import type { ChainHeights, RpcContext } from "./context.js";
import { RpcError } from "./errors.js";

type Member = Exclude<keyof RpcContext, "subscribeEvents">;

export function need<K extends Member>(
  context: RpcContext,
  member: K,
  route: string,
): NonNullable<RpcContext[K]> {
  const fn = context[member];
  if (typeof fn !== "function") {
    throw new RpcError(
      "RPC_NOT_AVAILABLE",
      `${route} is not available on this node (it does not provide ${member})`,
    );
  }
  return (fn as (...args: unknown[]) => unknown).bind(context) as NonNullable<RpcContext[K]>;
}

export function heightsOf(context: RpcContext, route: string): ChainHeights {
  return need(context, "chainHeights", route)();
}

/** Validators and consensus params exist one height ahead of the store while not syncing. */
export function latestUncommittedHeight(heights: ChainHeights): bigint {
  return heights.catchingUp ? heights.height : heights.height + 1n;
}
