// What the RPC server tells an observer (the node's metrics): each answered call with its route,
// duration and outcome, and each subscription dropped for a slow client. Optional: the server
// never depends on who listens.

export interface RpcObserver {
  callAnswered(route: string, seconds: number, ok: boolean): void;
  subscriptionDropped(): void;
}
