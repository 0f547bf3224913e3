// The peer transport: secret connections, the multiplexed connection, NodeInfo, the v0.34
// channel table and the per-socket handshake. The switch (src/p2p/switch), PEX and the address
// book build on these; the remote signer uses the secret connection alone.

export { channelMessageProblem } from "./channel-message-check.js";
export * from "./channels.js";
export { P2pError, type P2pErrorCode } from "./errors.js";
export { DEFAULT_MCONNECTION_CONFIG, MConnection, type PacketTransport } from "./mconnection/mconnection.js";
export { maxPacketBodySize } from "./mconnection/packet.js";
export { MerlinTranscript } from "./merlin/transcript.js";
export { mempoolTxCount, messageTypeLabel, UNKNOWN_MESSAGE_TYPE } from "./message-type.js";
export { nodeIdFromPublicKey, nodeIdProblem } from "./node-id.js";
export {
  BLOCK_PROTOCOL_VERSION,
  decodeNodeInfo,
  encodeNodeInfo,
  incompatibility,
  listenAddrProblem,
  MAX_NODE_INFO_SIZE,
  nodeInfoProblem,
  P2P_PROTOCOL_VERSION,
} from "./node-info.js";
export {
  HANDSHAKE_MESSAGE_LIMIT,
  makeSecretConnection,
  SecretConnection,
  type SecretConnectionOptions,
} from "./secret-connection/secret-connection.js";
export type * from "./types.js";
export { checkRemoteNodeInfo, upgradeConnection, V034_HANDSHAKE_PHASE_MS } from "./upgrade.js";
