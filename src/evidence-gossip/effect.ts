// What the evidence gossip reducer asks the wiring to do.

/** Queue one evidence's message on the peer's evidence channel; the answer is EvidenceSendFinished. */
export interface SendEvidence {
  type: "SendEvidence";
  peerId: string;
  channelId: number;
  seq: number;
  message: Uint8Array;
}

/** Wait `afterMs`, then EvidenceRetryElapsed. */
export interface ScheduleEvidenceRetry {
  type: "ScheduleEvidenceRetry";
  peerId: string;
  afterMs: number;
}

/** Wait `afterMs`, then EvidenceRebroadcastElapsed with this timer number. */
export interface ScheduleEvidenceRebroadcast {
  type: "ScheduleEvidenceRebroadcast";
  peerId: string;
  afterMs: number;
  timer: number;
}

export type EvidenceGossipEffect = SendEvidence | ScheduleEvidenceRetry | ScheduleEvidenceRebroadcast;
