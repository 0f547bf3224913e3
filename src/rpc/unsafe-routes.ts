// Routes that exist only with rpc.unsafe = true (reference §1.1); without it they are
// "Method not found", as in Tendermint.

import { need } from "./context-access.js";
import { RawJson } from "./encoder.js";
import { handlerError } from "./errors.js";
import { type Route, route } from "./route-spec.js";

/** dial_peers needs `id@host:port` for every peer (Tendermint's ErrNetAddressNoID otherwise). */
function checkPeerIds(peers: readonly string[]): void {
  for (const peer of peers) {
    const parts = peer.split("@");
    if (parts.length !== 2) throw handlerError(`address (${peer}) does not contain ID`);
  }
}

export const UNSAFE_ROUTES: readonly Route[] = [
  route({
    name: "dial_seeds",
    params: [{ name: "seeds", type: "stringArray" }],
    description: "dial seed nodes (unsafe)",
    handler: async ({ seeds }, { context }) => {
      if (seeds.length === 0) throw handlerError("no seeds provided");
      await need(context, "dialSeeds", "dial_seeds")(seeds);
      return { log: "Dialing seeds in progress. See /net_info for details" };
    },
  }),
  route({
    name: "dial_peers",
    params: [
      { name: "peers", type: "stringArray" },
      { name: "persistent", type: "bool" },
      { name: "unconditional", type: "bool" },
      { name: "private", type: "bool" },
    ],
    description: "dial peers, optionally as persistent, unconditional or private (unsafe)",
    handler: async (args, { context }) => {
      if (args.peers.length === 0) throw handlerError("no peers provided");
      checkPeerIds(args.peers);
      await need(
        context,
        "dialPeers",
        "dial_peers",
      )({
        peers: args.peers,
        persistent: args.persistent,
        unconditional: args.unconditional,
        private: args.private,
      });
      return { log: "Dialing peers in progress. See /net_info for details" };
    },
  }),
  route({
    name: "unsafe_flush_mempool",
    params: [],
    description: "remove every transaction from the mempool (unsafe)",
    handler: async (_args, { context }) => {
      await need(context, "unsafeFlushMempool", "unsafe_flush_mempool")();
      return new RawJson("{}");
    },
  }),
];
