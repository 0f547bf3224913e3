// Byte-flow statistics of one direction of a connection, computed the way v0.34's flowrate
// monitor does (100 ms samples, an exponential moving average over a 1 s window), so net_info's
// send_monitor / recv_monitor read like a Go node's.

import type { FlowStatus } from "../types.js";

const SAMPLE_MS = 100;
const WINDOW_S = 1;
const NS_PER_MS = 1e6;

export class FlowMonitor {
  private readonly start: number;
  private bytes = 0;
  private sampleBytes = 0;
  private samples = 0;
  private rSample = 0;
  private rEma = 0;
  private rPeak = 0;
  private sampleStart: number;
  private lastTransfer: number;
  private active = true;

  constructor(private readonly now: () => number = Date.now) {
    this.start = now();
    this.sampleStart = this.start;
    this.lastTransfer = this.start;
  }

  /** Records n transferred bytes. */
  update(n: number): void {
    this.advance(n);
  }

  /** Stops sampling (the connection ended); the status keeps its last figures. */
  done(): void {
    this.advance(0);
    this.active = false;
  }

  status(): FlowStatus {
    const now = this.advance(0);
    const durationMs = this.sampleStart - this.start;
    const avgRate = durationMs > 0 ? Math.round(this.bytes / (durationMs / 1000)) : 0;
    return {
      start: new Date(this.start).toISOString(),
      // Go reports only sampled bytes (lagging up to 100 ms); we include the open sample too.
      bytes: this.bytes + this.sampleBytes,
      samples: this.samples,
      instRate: this.active && durationMs > 0 ? Math.round(this.rSample) : 0,
      curRate: this.active && durationMs > 0 ? Math.round(this.rEma) : 0,
      avgRate,
      peakRate: Math.round(this.rPeak),
      bytesRem: 0,
      duration: Math.round(durationMs * NS_PER_MS),
      idle: Math.round((now - this.lastTransfer) * NS_PER_MS),
      timeRem: 0,
      progress: 0,
      active: this.active,
    };
  }

  private advance(n: number): number {
    const now = this.now();
    if (!this.active) return now;
    if (n > 0) this.lastTransfer = now;
    this.sampleBytes += n;
    const elapsedMs = now - this.sampleStart;
    if (elapsedMs >= SAMPLE_MS) {
      const seconds = elapsedMs / 1000;
      this.rSample = this.sampleBytes / seconds;
      if (this.rSample > this.rPeak) this.rPeak = this.rSample;
      // Longer sample periods carry more weight, as in a load average.
      this.rEma =
        this.samples > 0
          ? this.rSample + Math.exp(-seconds / WINDOW_S) * (this.rEma - this.rSample)
          : this.rSample;
      this.bytes += this.sampleBytes;
      this.samples += 1;
      this.sampleBytes = 0;
      this.sampleStart = now;
    }
    return now;
  }

  /** Bytes counted so far, including the current unfinished sample. */
  get total(): number {
    return this.bytes + this.sampleBytes;
  }
}

/**
 * A byte-rate limit (send_rate / recv_rate). Transfers may overdraw the bucket; the caller then
 * waits `waitMs()` until the debt is repaid, so the long-run rate never exceeds `rate` while a
 * single packet or batch is never split to fit.
 */
export class RateLimiter {
  private tokens: number;
  private last: number;
  private readonly burst: number;

  constructor(
    private readonly rate: number,
    burst: number,
    private readonly now: () => number = Date.now,
  ) {
    this.burst = Math.max(burst, 1);
    this.tokens = this.burst;
    this.last = now();
  }

  /** True when a transfer may start now. */
  ready(): boolean {
    this.refill();
    return this.tokens > 0;
  }

  consume(n: number): void {
    this.refill();
    this.tokens -= n;
  }

  /** Milliseconds until a transfer may start again. */
  waitMs(): number {
    this.refill();
    if (this.tokens > 0) return 0;
    return Math.ceil(((1 - this.tokens) / this.rate) * 1000);
  }

  private refill(): void {
    const now = this.now();
    if (now > this.last) {
      this.tokens = Math.min(this.burst, this.tokens + ((now - this.last) / 1000) * this.rate);
      this.last = now;
    }
  }
}
