// The ABCI module owns the node's side of the application interface: the zigzag-varint framing of
// the v0.34 socket protocol, the client (four independent connections over sockets, or direct
// calls into an in-process app), a socket server for apps written against our Application
// interface, the example apps (kvstore, persistent_kvstore, counter, noop), the start handshake,
// and stopping the node when a connection dies.
export type { Application, MaybePromise } from "./apps/application.js";
export { CounterApplication } from "./apps/counter.js";
export { KvstoreApplication, type KvstoreOptions, type KvstoreState } from "./apps/kvstore.js";
export { kvstoreAppHash } from "./apps/kvstore-app-hash.js";
export { NoopApplication } from "./apps/noop.js";
export * from "./apps/responses.js";
export {
  type AbciClient,
  type AbciLogger,
  CONNECTION_ORDER,
  type ConnectionName,
  type ConsensusConnection,
  type MempoolConnection,
  NODE_INFO_REQUEST,
  type QueryConnection,
  type SnapshotConnection,
  silentLogger,
} from "./client/abci-client.js";
export { formatSocketAddress, parseSocketAddress, type SocketAddress } from "./client/address.js";
export {
  type CreateClientOptions,
  createAbciClient,
  createExampleApp,
  IN_PROCESS_APPS,
  type InProcessAppName,
  isInProcessApp,
} from "./client/create-client.js";
export { InProcessAbciClient } from "./client/in-process-client.js";
export { connectSocketClient, SocketAbciClient, type SocketClientOptions } from "./client/socket-client.js";
export { ABCI_HALT_EXIT_CODE, AbciError, type AbciErrorCode, isFatalConnectionError } from "./errors.js";
export {
  type BlockEvents,
  blockEvents,
  commitBlockOnApp,
  DELIVER_TX_WINDOW,
  type ExecuteBlockDeps,
  type ExecutedBlock,
  executeBlock,
  IN_PROCESS_DELIVER_TX_WINDOW,
  runBlockOnApp,
} from "./execute-block.js";
export {
  encodeLengthPrefix,
  FrameDecoder,
  frameMessage,
  MAX_ABCI_MESSAGE_SIZE,
  readLengthPrefix,
} from "./framing.js";
export { type AbciHalt, haltOnAbciFailure } from "./halt-on-failure.js";
export {
  type HandshakeBlockStore,
  type HandshakeDeps,
  type HandshakeResult,
  type HandshakeStateStore,
  handshake,
} from "./handshake.js";
export { type AbciSocketServer, listenAbci, serveConnection } from "./server/socket-server.js";
