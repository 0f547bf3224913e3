// Errors of the peer transport. Every code names the step that failed so a log line saying
// "peer X closed: P2P_BAD_MAC ..." is enough to know what the remote did wrong.
import { CodedError } from "../coded-error.js";

export type P2pErrorCode =
  | "P2P_HANDSHAKE_TIMEOUT"
  | "P2P_HANDSHAKE_EOF"
  | "P2P_BAD_EPHEMERAL_KEY"
  | "P2P_LOW_ORDER_KEY"
  | "P2P_BAD_AUTH_SIG"
  | "P2P_BAD_MAC"
  | "P2P_BAD_FRAME"
  | "P2P_NONCE_OVERFLOW"
  | "P2P_DIALLED_ID_MISMATCH"
  | "P2P_BAD_NODE_INFO"
  | "P2P_ID_MISMATCH"
  | "P2P_SELF"
  | "P2P_INCOMPATIBLE"
  | "P2P_PACKET_TOO_LARGE"
  | "P2P_BAD_PACKET"
  | "P2P_UNKNOWN_CHANNEL"
  | "P2P_MESSAGE_TOO_LARGE"
  | "P2P_BAD_MESSAGE"
  | "P2P_PONG_TIMEOUT"
  | "P2P_SOCKET_ERROR"
  | "P2P_CLOSED_BY_PEER"
  | "P2P_CLOSED_BY_US";

export class P2pError extends CodedError<P2pErrorCode> {}
