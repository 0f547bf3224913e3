// What the mempool gossip reducer asks the wiring to do.

/**
 * Queue messages of txs on the peer's mempool channel, in order and all or none: admission numbers
 * `seq` to `through` (those of them the peer did not send us); the answer is GossipTxSendFinished.
 */
export interface SendGossipTx {
  type: "SendGossipTx";
  peerId: string;
  channelId: number;
  seq: number;
  through: number;
  messages: readonly Uint8Array[];
}

/** Wait `afterMs`, then GossipSleepElapsed for the peer. */
export interface ScheduleGossipSleep {
  type: "ScheduleGossipSleep";
  peerId: string;
  afterMs: number;
}

/** Wait `afterMs`, then RelayReleaseDue (the relay hold, MempoolGossipConfig.relayHoldMs). */
export interface ScheduleRelayRelease {
  type: "ScheduleRelayRelease";
  afterMs: number;
}

export type MempoolGossipEffect = SendGossipTx | ScheduleGossipSleep | ScheduleRelayRelease;
