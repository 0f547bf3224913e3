// The evidence pool (v0.34's evidence package): what misbehaviour the node has proof of and
// what it does with it. Pure rules: conflicting votes become DuplicateVoteEvidence once their
// block time is known; evidence from a block, a peer or the RPC is verified (duplicate votes, and
// light client attacks against our signed headers); pending evidence is offered to proposals and
// gossiped; committed and expired evidence leaves the pool. The state is persisted by
// src/store/evidence-store.ts; the wiring is streams/effects/evidence.ts.
export * from "./duplicate-vote.js";
export * from "./errors.js";
export * from "./light-client-attack.js";
export * from "./rules.js";
export * from "./state.js";
