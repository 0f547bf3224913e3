// The stages of a tx's path as a CPU profile's frames name them: the one table both profile
// readers use (cpu-profile-stages.mjs sums a whole run by stage, long-turns.mjs names what fills
// each long turn), so a stage means the same in both.
// First match wins, innermost frame first; a frame no rule names passes to its caller.
export const RULES = [
  ["tx result encoding", /src\/store\/deliver-tx-bytes|src\/wire\/repeated-bytes-in-pieces/],
  ["index", /src\/store\/indexer\/|height-index-queue/],
  ["event bus", /streams\/projections\/(event-bus|node-events)|src\/rpc\/events\//],
  ["execution (app, DeliverTx)", /src\/abci\/|src\/state\/|streams\/effects\/block-(commit|execution)/],
  ["block store", /src\/store\/(block-store|state-store|persist-height)|src\/types\/block\.js/],
  ["log (WAL)", /src\/wal\/|streams\/effects\/wal/],
  [
    "reap, proposal",
    /src\/mempool\/reap|src\/types\/data-hash|src\/consensus\/proposal|streams\/effects\/(reaping|proposal)/,
  ],
  ["mempool (CheckTx, fold, update)", /src\/mempool\/|streams\/mempool-node|streams\/effects\/mempool/],
  ["RPC (HTTP, JSON-RPC, admission)", /src\/rpc\/|streams\/projections\/rpc-/],
  ["consensus", /src\/consensus\/|streams\/effects\//],
  ["loop, RxJS", /streams\/loop|rxjs\//],
];

/** The stage of one sample from its stack of call frames, innermost first. */
export const stageOf = (stack) => {
  const leaf = stack[0].functionName;
  if (leaf === "(garbage collector)" || leaf === "(idle)" || leaf === "(program)") return leaf;
  for (const frame of stack) for (const [stage, rule] of RULES) if (rule.test(frame.url)) return stage;
  return "other";
};
