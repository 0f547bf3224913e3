// Where each input of a state machine comes from, for rxbft_inputs_folded_total{source}. A table,
// not logic: the input types are a file format (src/consensus/input.ts, src/mempool/input.ts).

const CONSENSUS_SOURCES: Record<string, string> = {
  ConsensusStarted: "node",
  ConsensusResumed: "node",
  ProposalReceived: "peer",
  BlockPartReceived: "peer",
  VoteReceived: "peer",
  TimeoutElapsed: "timer",
  TxsAvailable: "mempool",
  ProposalBlockReaped: "mempool",
  ProposalSigned: "signer",
  VoteSigned: "signer",
  SignFailed: "signer",
  BlockValidated: "app",
  BlockExecuted: "app",
};

/** Peer inputs without a sender are our own (our proposal's parts, our votes echoed back). */
export function consensusInputSource(input: { type: string; from?: string }): string {
  const source = CONSENSUS_SOURCES[input.type] ?? "node";
  if (source === "peer" && !input.from) return "node";
  return source;
}

export function mempoolInputSource(input: { type: string; from?: string }): string {
  switch (input.type) {
    case "TxSubmitted":
      return input.from === "rpc" ? "rpc" : "peer";
    case "CheckTxCompleted":
    case "CheckTxsCompleted":
    case "RecheckCompleted":
    case "RechecksCompleted":
      return "app";
    case "BlockTxsCommitted":
    case "BlockCommitted":
      return "consensus";
    default:
      return "rpc";
  }
}
