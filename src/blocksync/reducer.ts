// The block pool (v0.34 blockchain/v0 BlockPool and the reactor's pool routine) as a pure
// reducer: (state, input) → state and effects. No clock, no I/O: time comes on the inputs.
//
// Rules, in v0.34's terms where it has them (reference p2p-v034.md §6.4):
// - A peer joins the pool with its first status; it serves heights base..height.
// - The window: requests for heights height .. height+maxRequests-1 up to the highest reported
//   height; each goes to the eligible peer (base ≤ h ≤ height, under maxRequestsPerPeer) with the
//   fewest requests in flight (ties: lowest id, so a run replays the same).
// - A request unanswered for requestRetryMs goes to another peer when there is one.
// - A peer with requests in flight that sends no block for peerTimeoutMs, or delivers under
//   minRecvBytesPerSecond over a whole rate window while busy, is dropped.
// - A block from a peer not asked for it, a second copy of one, a block for a height never
//   requested (or further than maxUnaskedDistance from ours), and a NoBlockResponse for a height
//   the peer reported it has: the peer lied or broke the protocol, and is dropped.
// - Blocks apply in order: when height and height+1 are both here, VerifyAndApply(height). A
//   rejection drops the sender(s) blamed and asks for their heights again elsewhere.
// - Beyond v0.34, with the validator sets given (state.validators): the certificates of up to
//   checkAhead held blocks are checked (CheckCommit) while earlier ones apply, each with the set
//   the pool expects to sign it: exact for the next two heights (the applied state names them),
//   the latest next set beyond. A block applies only once checked with the set known to sign it;
//   one checked with another set (the set changed) is checked again. A failed check counts only
//   when its set is the one known to sign the height, and then drops the blamed sender and asks
//   for the height again, as a rejection at apply does. A replaced block's check is forgotten.
// - The status of every peer is asked for every statusIntervalMs; the switch rule (caught-up.ts)
//   is checked every switchCheckMs and ends the pool with SwitchToConsensus.
// A dropped or removed peer's outstanding requests are reassigned at once.
import type { Block } from "../wire/generated/tendermint/types/block.js";
import { isCaughtUp } from "./caught-up.js";
import type { BlockPoolEffect } from "./effect.js";
import type {
  BlockApplied,
  BlockPoolInput,
  BlockReceived,
  BlockRejected,
  CommitChecked,
  NoBlockReceived,
  PeerStatusReceived,
} from "./input.js";
import type { BlockPoolState, KnownValidators, PoolPeer, PoolRequest, PoolValidators } from "./state.js";

export interface BlockPoolTransition {
  state: BlockPoolState;
  effects: readonly BlockPoolEffect[];
}

const NONE: readonly BlockPoolEffect[] = Object.freeze([]);

/** A mutable working copy of one transition; maps are copied on first write. */
class Draft {
  // Most inputs change one or two entries of maps of up to maxRequests entries, and many change
  // none: the state's maps are shared until the first write.
  #peers: ReadonlyMap<string, PoolPeer>;
  #requests: ReadonlyMap<bigint, PoolRequest>;
  #peersCopied = false;
  #requestsCopied = false;
  readonly effects: BlockPoolEffect[] = [];
  height: bigint;
  maxPeerHeight: bigint;
  applying: bigint | undefined;
  lastStatusRequestAt: number | undefined;
  lastSwitchCheckAt: number;
  synced: number;
  switched: boolean;
  validators: PoolValidators | undefined;
  nextCheckId: number;

  constructor(
    readonly base: BlockPoolState,
    readonly now: number,
  ) {
    this.#peers = base.peers;
    this.#requests = base.requests;
    this.height = base.height;
    this.maxPeerHeight = base.maxPeerHeight;
    this.applying = base.applying;
    this.lastStatusRequestAt = base.lastStatusRequestAt;
    this.lastSwitchCheckAt = base.lastSwitchCheckAt;
    this.synced = base.synced;
    this.switched = base.switched;
    this.validators = base.validators;
    this.nextCheckId = base.nextCheckId ?? 1;
  }

  get peers(): ReadonlyMap<string, PoolPeer> {
    return this.#peers;
  }

  get requests(): ReadonlyMap<bigint, PoolRequest> {
    return this.#requests;
  }

  #writablePeers(): Map<string, PoolPeer> {
    if (!this.#peersCopied) {
      this.#peers = new Map(this.#peers);
      this.#peersCopied = true;
    }
    return this.#peers as Map<string, PoolPeer>;
  }

  #writableRequests(): Map<bigint, PoolRequest> {
    if (!this.#requestsCopied) {
      this.#requests = new Map(this.#requests);
      this.#requestsCopied = true;
    }
    return this.#requests as Map<bigint, PoolRequest>;
  }

  setPeer(id: string, peer: PoolPeer): void {
    this.#writablePeers().set(id, peer);
  }

  deletePeer(id: string): void {
    this.#writablePeers().delete(id);
  }

  setRequest(height: bigint, request: PoolRequest): void {
    this.#writableRequests().set(height, request);
  }

  deleteRequest(height: bigint): void {
    this.#writableRequests().delete(height);
  }

  get params() {
    return this.base.params;
  }

  finish(): BlockPoolTransition {
    return {
      state: {
        params: this.base.params,
        height: this.height,
        startedAt: this.base.startedAt,
        peers: this.peers,
        requests: this.requests,
        maxPeerHeight: this.maxPeerHeight,
        applying: this.applying,
        lastStatusRequestAt: this.lastStatusRequestAt,
        lastSwitchCheckAt: this.lastSwitchCheckAt,
        synced: this.synced,
        switched: this.switched,
        validators: this.validators,
        nextCheckId: this.nextCheckId,
      },
      effects: this.effects.length === 0 ? NONE : this.effects,
    };
  }

  /** One fewer request in flight at `peerId`. */
  release(peerId: string): void {
    const peer = this.peers.get(peerId);
    if (peer === undefined) return;
    const pending = peer.pending > 0 ? peer.pending - 1 : 0;
    this.setPeer(peerId, { ...peer, pending, busySince: pending === 0 ? undefined : peer.busySince });
  }

  /** Takes the request at `height` away from its peer (it goes to the next eligible one). */
  unassign(height: bigint): void {
    const r = this.requests.get(height);
    if (r === undefined || r.peerId === undefined || r.block !== undefined) return;
    this.release(r.peerId);
    this.setRequest(height, { ...r, peerId: undefined });
  }

  /** Drops a peer: tells the wiring why, and forgets it (its blocks too when `distrusted`). */
  drop(peerId: string, reason: string): void {
    if (!this.peers.has(peerId)) return;
    this.effects.push({ type: "DropPeer", peerId, reason });
    this.remove(peerId, true);
  }

  /** Forgets a peer; its unanswered requests go back to the queue. */
  remove(peerId: string, distrusted: boolean): void {
    const peer = this.peers.get(peerId);
    if (peer === undefined) return;
    for (const r of this.requests.values()) {
      if (r.block === undefined && r.peerId === peerId) {
        this.setRequest(r.height, { ...r, peerId: undefined });
      } else if (distrusted && r.block !== undefined && r.from === peerId && r.height !== this.applying) {
        // Not yet verified: a liar's other blocks are fetched again from someone else.
        this.clearBlock(r.height);
      }
    }
    this.deletePeer(peerId);
    if (peer.height >= this.maxPeerHeight) this.recomputeMaxPeerHeight();
  }

  /** Forgets the block at `height` (asked again of someone), and the checks that used it. */
  clearBlock(height: bigint): void {
    const r = this.requests.get(height);
    if (r !== undefined)
      this.setRequest(height, {
        ...r,
        block: undefined,
        from: undefined,
        peerId: undefined,
        check: undefined,
      });
    // The block below was checked against this one's LastCommit.
    const below = this.requests.get(height - 1n);
    if (below?.check !== undefined && height - 1n !== this.applying)
      this.setRequest(height - 1n, { ...below, check: undefined });
  }

  /** Block `height` failed verification: its blamed senders are dropped, the heights asked again. */
  reject(h: bigint, reason: string, blame: BlockRejected["blame"]): void {
    const first = this.requests.get(h);
    const second = this.requests.get(h + 1n);
    const culprits = new Set<string>();
    const blamed = blame === "first" ? [first] : blame === "second" ? [second] : [first, second];
    for (const r of blamed) {
      if (r === undefined) continue;
      if (r.from !== undefined) culprits.add(r.from);
      this.clearBlock(r.height);
    }
    for (const peerId of culprits)
      this.drop(peerId, `blocksync: block ${h} failed verification against block ${h + 1n}: ${reason}`);
  }

  /** The set that signs height `h`'s commit as far as the pool knows (exact up to height + 1). */
  setFor(h: bigint): KnownValidators | undefined {
    const v = this.validators;
    if (v === undefined) return undefined;
    return h === this.height ? v.current : v.next;
  }

  /** Blocks are checked by CheckCommit, ahead of their turn (the wiring gave the sets). */
  get checksAhead(): boolean {
    return this.validators !== undefined && this.params.checkAhead > 0;
  }

  /** Starts, restarts or settles the checks of held blocks ahead of their turn. */
  tryCheck(): void {
    if (this.switched || !this.checksAhead || this.validators === undefined) return;
    const end = this.height + BigInt(this.params.checkAhead);
    for (let h = this.height; h < end; h++) {
      if (h === this.applying) continue;
      const r = this.requests.get(h);
      const next = this.requests.get(h + 1n);
      if (r === undefined) break;
      if (r.block === undefined || next?.block === undefined) continue;
      const set = this.setFor(h)!;
      const c = r.check;
      if (c?.status === "running") continue;
      if (c !== undefined && c.key === set.key) {
        // A failure with the set known to sign the height is the block's (or its certificate's).
        if (c.status === "failed" && h <= this.height + 1n) this.reject(h, c.reason, c.blame);
        continue;
      }
      const id = this.nextCheckId++;
      this.setRequest(h, { ...r, check: { status: "running", id, key: set.key } });
      this.effects.push({
        type: "CheckCommit",
        height: h,
        checkId: id,
        first: r.block,
        second: next.block,
        validators: set.set,
      });
    }
  }

  recomputeMaxPeerHeight(): void {
    let max = 0n;
    for (const p of this.peers.values()) if (p.height > max) max = p.height;
    this.maxPeerHeight = max;
    // Heights at the top of the window nobody can serve any more leave it (it stays contiguous).
    let top = this.height + BigInt(this.requests.size) - 1n;
    while (top > max && top >= this.height) {
      const r = this.requests.get(top);
      if (r === undefined || r.block !== undefined || top === this.applying) break;
      if (r.peerId !== undefined) this.release(r.peerId);
      this.deleteRequest(top);
      top--;
    }
  }

  /** Opens requests up to the window and the highest reported height, and hands them to peers. */
  fill(): void {
    if (this.switched) return;
    const { maxRequests } = this.params;
    while (this.requests.size < maxRequests) {
      const next = this.height + BigInt(this.requests.size);
      if (next > this.maxPeerHeight) break;
      this.setRequest(next, {
        height: next,
        peerId: undefined,
        sentAt: this.now,
        asked: [],
        block: undefined,
        from: undefined,
      });
    }
    // Room left at the peers: with none (the usual case while blocks stream in) the window is not
    // walked at all, and the walk stops once every slot is taken.
    let room = 0;
    for (const p of this.peers.values()) room += Math.max(0, this.params.maxRequestsPerPeer - p.pending);
    // The window's heights are contiguous from `height`: walked in order, lowest first.
    const end = this.height + BigInt(this.requests.size);
    for (let h = this.height; h < end && room > 0; h++) {
      const r = this.requests.get(h);
      if (r === undefined || r.peerId !== undefined || r.block !== undefined) continue;
      const peer = this.pick(h, r.asked);
      if (peer === undefined) continue;
      // An idle peer's silence timer and rate window start with its first request.
      const wasIdle = peer.pending === 0;
      this.setPeer(peer.id, {
        ...peer,
        pending: peer.pending + 1,
        lastHeardAt: wasIdle ? this.now : peer.lastHeardAt,
        busySince: wasIdle ? this.now : peer.busySince,
        windowStart: wasIdle ? this.now : peer.windowStart,
        windowBytes: wasIdle ? 0 : peer.windowBytes,
      });
      this.setRequest(h, {
        ...r,
        peerId: peer.id,
        sentAt: this.now,
        asked: r.asked.includes(peer.id) ? r.asked : [...r.asked, peer.id],
      });
      this.effects.push({ type: "RequestBlock", peerId: peer.id, height: h });
      room--;
    }
  }

  /** The eligible peer with the fewest requests in flight, preferring one not asked before. */
  private pick(height: bigint, asked: readonly string[]): PoolPeer | undefined {
    let best: PoolPeer | undefined;
    let bestFresh = false;
    for (const p of this.peers.values()) {
      if (p.pending >= this.params.maxRequestsPerPeer) continue;
      if (height < p.base || height > p.height) continue;
      const fresh = !asked.includes(p.id);
      if (
        best === undefined ||
        (fresh && !bestFresh) ||
        (fresh === bestFresh && (p.pending < best.pending || (p.pending === best.pending && p.id < best.id)))
      ) {
        best = p;
        bestFresh = fresh;
      }
    }
    return best;
  }

  /** When the next two blocks are here and nothing is being applied: verify and apply the first. */
  tryApply(): void {
    if (this.switched || this.applying !== undefined) return;
    const first = this.requests.get(this.height);
    const second = this.requests.get(this.height + 1n);
    if (first?.block === undefined || second?.block === undefined) return;
    const check = first.check;
    const checkedAhead = this.checksAhead && this.validators !== undefined;
    if (checkedAhead) {
      // Only a block checked with the set that signs this height applies (tryCheck starts it).
      if (check?.status !== "passed" || check.key !== this.validators?.current.key) return;
    }
    this.applying = this.height;
    this.effects.push({
      type: "VerifyAndApply",
      height: this.height,
      first: first.block,
      second: second.block,
      firstPeer: first.from!,
      secondPeer: second.from!,
      ...(checkedAhead && check?.status === "passed" ? { checked: check.block } : {}),
    });
  }
}

function onStatus(d: Draft, input: PeerStatusReceived): void {
  const { peerId, base, height } = input;
  // v0.34's ValidateBasic of StatusResponse: a range no chain can have.
  if (base < 0n || height < 0n || base > height) {
    d.effects.push({
      type: "DropPeer",
      peerId,
      reason: `blocksync: impossible status (base ${base}, height ${height})`,
    });
    d.remove(peerId, true);
    return;
  }
  const known = d.peers.get(peerId);
  d.setPeer(
    peerId,
    known === undefined
      ? {
          id: peerId,
          base,
          height,
          pending: 0,
          lastHeardAt: d.now,
          busySince: undefined,
          windowStart: d.now,
          windowBytes: 0,
        }
      : { ...known, base, height },
  );
  if (height > d.maxPeerHeight) d.maxPeerHeight = height;
  else if (known !== undefined && known.height >= d.maxPeerHeight) d.recomputeMaxPeerHeight();
  // Requests this peer can no longer serve go to someone else.
  if (known !== undefined)
    for (const r of d.requests.values())
      if (r.peerId === peerId && r.block === undefined && (r.height < base || r.height > height))
        d.unassign(r.height);
}

function onBlock(d: Draft, input: BlockReceived): void {
  const { peerId, block } = input;
  if (!d.peers.has(peerId)) return; // gone already, or never sent a status: nothing was asked of it
  const h = block.header.height;
  const r = d.requests.get(h);
  if (r === undefined) {
    const distance = h > d.height ? h - d.height : d.height - h;
    if (h >= d.height) d.drop(peerId, `blocksync: sent block ${h}, which we never requested`);
    else if (distance > d.params.maxUnaskedDistance)
      d.drop(peerId, `blocksync: sent block ${h}, ${distance} heights away from ours (${d.height})`);
    // Below our height and close: a late answer to a request re-sent elsewhere; ignored.
    return;
  }
  if (r.peerId !== peerId || r.block !== undefined) {
    if (r.asked.includes(peerId) && r.from !== peerId) return; // late answer after a retry
    d.drop(
      peerId,
      r.from === peerId
        ? `blocksync: sent block ${h} twice`
        : `blocksync: sent block ${h}, which we asked of another peer`,
    );
    return;
  }
  const peer = d.peers.get(peerId)!;
  const pending = peer.pending - 1;
  d.setPeer(peerId, {
    ...peer,
    pending,
    lastHeardAt: d.now,
    busySince: pending === 0 ? undefined : peer.busySince,
    windowBytes: peer.windowBytes + input.size,
  });
  d.setRequest(h, { ...r, block, from: peerId });
}

function onNoBlock(d: Draft, input: NoBlockReceived): void {
  const { peerId, height } = input;
  const peer = d.peers.get(peerId);
  const r = d.requests.get(height);
  if (peer === undefined || r === undefined || r.peerId !== peerId || r.block !== undefined) return;
  if (height >= peer.base && height <= peer.height) {
    d.drop(peerId, `blocksync: reported heights ${peer.base}..${peer.height} but has no block ${height}`);
    return;
  }
  d.unassign(height);
}

function onApplied(d: Draft, input: BlockApplied): void {
  if (d.applying !== input.height || input.height !== d.height) {
    throw new Error(
      `block pool: BlockApplied ${input.height} but applying ${d.applying} at height ${d.height}`,
    );
  }
  d.deleteRequest(d.height);
  d.height += 1n;
  d.applying = undefined;
  d.synced += 1;
  // The sets of the state after the block; without them no more checks ahead.
  d.validators =
    input.validators !== undefined && input.nextValidators !== undefined
      ? { current: input.validators, next: input.nextValidators }
      : undefined;
}

function onChecked(d: Draft, input: CommitChecked): void {
  const r = d.requests.get(input.height);
  const c = r?.check;
  if (r === undefined || c?.status !== "running" || c.id !== input.checkId) return; // a replaced block's
  d.setRequest(input.height, {
    ...r,
    check: { status: "passed", id: c.id, key: c.key, block: input.block },
  });
}

function onRejected(d: Draft, input: BlockRejected): void {
  if (input.checkId !== undefined) {
    // A check ahead: kept as failed, acted on by tryCheck once its set is known to sign the height.
    const r = d.requests.get(input.height);
    const c = r?.check;
    if (r === undefined || c?.status !== "running" || c.id !== input.checkId) return;
    d.setRequest(input.height, {
      ...r,
      check: { status: "failed", id: c.id, key: c.key, reason: input.reason, blame: input.blame },
    });
    return;
  }
  if (d.applying !== input.height) return;
  d.applying = undefined;
  d.reject(input.height, input.reason, input.blame);
}

function onTick(d: Draft): void {
  const p = d.params;
  const now = d.now;
  if (d.lastStatusRequestAt === undefined || now - d.lastStatusRequestAt >= p.statusIntervalMs) {
    d.lastStatusRequestAt = now;
    d.effects.push({ type: "BroadcastStatusRequest" });
  }
  for (const r of d.requests.values())
    if (r.peerId !== undefined && r.block === undefined && now - r.sentAt >= p.requestRetryMs)
      d.unassign(r.height);
  for (const peer of [...d.peers.values()]) {
    if (peer.pending > 0 && now - peer.lastHeardAt >= p.peerTimeoutMs) {
      d.drop(
        peer.id,
        `blocksync: sent nothing for ${(now - peer.lastHeardAt) / 1000} s with ${peer.pending} requests pending`,
      );
      continue;
    }
    const elapsed = now - peer.windowStart;
    if (elapsed < p.rateWindowMs) continue;
    const busyAllWindow = peer.busySince !== undefined && peer.busySince <= peer.windowStart;
    const rate = (peer.windowBytes * 1000) / elapsed;
    if (busyAllWindow && peer.windowBytes > 0 && rate < p.minRecvBytesPerSecond) {
      d.drop(
        peer.id,
        `blocksync: sends ${Math.round(rate)} B/s, below the minimum ${p.minRecvBytesPerSecond} B/s`,
      );
      continue;
    }
    d.setPeer(peer.id, { ...peer, windowStart: now, windowBytes: 0 });
  }
  if (now - d.lastSwitchCheckAt >= p.switchCheckMs) {
    d.lastSwitchCheckAt = now;
    const current = { ...d.base, peers: d.peers, height: d.height, maxPeerHeight: d.maxPeerHeight };
    if (isCaughtUp(current, now) && d.applying === undefined) {
      d.switched = true;
      d.effects.push({
        type: "SwitchToConsensus",
        lastHeight: d.height - 1n,
        synced: d.synced,
        maxPeerHeight: d.maxPeerHeight,
      });
    }
  }
}

/** The block pool's reducer. A broken invariant of our own (an answer for a block not out) throws. */
export function blockPoolReducer(state: BlockPoolState, input: BlockPoolInput): BlockPoolTransition {
  if (state.switched) return { state, effects: NONE };
  const d = new Draft(state, input.time);
  switch (input.type) {
    case "PeerStatusReceived":
      onStatus(d, input);
      break;
    case "PeerRemoved":
      d.remove(input.peerId, false);
      break;
    case "BlockReceived":
      onBlock(d, input);
      break;
    case "NoBlockReceived":
      onNoBlock(d, input);
      break;
    case "BlockApplied":
      onApplied(d, input);
      break;
    case "CommitChecked":
      onChecked(d, input);
      break;
    case "BlockRejected":
      onRejected(d, input);
      break;
    case "Tick":
      onTick(d);
      break;
  }
  d.tryCheck();
  d.fill();
  d.tryApply();
  return d.finish();
}

/** The blocks the pool holds, for a test or a debug dump. */
export function heldBlocks(state: BlockPoolState): Block[] {
  return [...state.requests.values()].flatMap((r) => (r.block ? [r.block] : []));
}
