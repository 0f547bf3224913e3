// What the mempool gossip reducer asks the wiring to do.

/** Queue one tx's message on the peer's mempool channel; the answer is GossipTxSendFinished. */
export interface SendGossipTx {
  type: "SendGossipTx";
  peerId: string;
  channelId: number;
  seq: number;
  message: Uint8Array;
}

/** Wait `afterMs`, then GossipSleepElapsed for the peer. */
export interface ScheduleGossipSleep {
  type: "ScheduleGossipSleep";
  peerId: string;
  afterMs: number;
}

export type MempoolGossipEffect = SendGossipTx | ScheduleGossipSleep;
