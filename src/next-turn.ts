// One turn of the event loop, for work on the node's thread cut into pieces: the promise resolves
// from a setImmediate callback, after the I/O callbacks already waiting (RPC requests, peer bytes)
// have run, so long work yields to them between its pieces. Shared by every piece-wise loop
// (block commit, reaping, the mempool's update, the kvstore's Commit, the event indexer).

export const nextTurn = (): Promise<void> => new Promise<void>((resolve) => setImmediate(resolve));
