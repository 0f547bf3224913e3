// The mempool: where transactions wait for a block. A pure reducer owns admission (cache,
// size limits, CheckTx outcome), removal after each block, recheck and the "txs available"
// notice; reaping for proposals and `unconfirmed_txs` are pure reads of its state.
// Running CheckTx, answering RPC callers and gossiping are effects carried out in streams/.
export * from "./effect.js";
export * from "./errors.js";
export * from "./input.js";
export { protoSizeOfTx, reapMaxBytesMaxGas, reapMaxTxs } from "./reap.js";
export { type MempoolTransition, mempoolReducer } from "./reducer.js";
export * from "./state.js";
