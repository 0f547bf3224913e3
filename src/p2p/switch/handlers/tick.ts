// Time passing: connections past their deadline are cut (a peer that stalls its handshake, a dial
// that hangs), then persistent redials and spread dials that are due go out.
import type { SwitchEffect } from "../effect.js";
import type { SwitchInput } from "../input.js";
import type { SwitchState } from "../state.js";
import { dialRefusal, startDial } from "./dial.js";
import { failPending } from "./loss.js";
import type { SwitchResult } from "./result.js";

export function onSwitchTicked(
  state: SwitchState,
  input: Extract<SwitchInput, { type: "SwitchTicked" }>,
): SwitchResult {
  const now = input.time;
  let next: SwitchState = { ...state, time: now };
  const effects: SwitchEffect[] = [];
  let seed = input.seed;
  for (const c of state.pending.values()) {
    if (c.deadline > now) continue;
    const reason = c.outbound ? "dial or handshake timed out" : "handshake timed out";
    const r = failPending(next, c.connId, reason, now, seed++, { close: true });
    next = r.state;
    effects.push(...r.effects);
  }
  for (const entry of next.persistent.values()) {
    if (entry.nextDialAt === undefined || entry.nextDialAt > now) continue;
    if (dialRefusal(next, entry.address) !== undefined) {
      // connected or dialling already (maybe it dialled us): nothing to schedule
      const persistent = new Map(next.persistent);
      persistent.set(entry.address.id, { ...entry, nextDialAt: undefined });
      next = { ...next, persistent };
      continue;
    }
    const r = startDial(next, entry.address, now);
    next = r.state;
    effects.push(...r.effects);
  }
  if (next.scheduled.some((s) => s.at <= now)) {
    const due = next.scheduled.filter((s) => s.at <= now);
    next = { ...next, scheduled: next.scheduled.filter((s) => s.at > now) };
    for (const s of due) {
      if (dialRefusal(next, s.address) !== undefined) continue;
      const r = startDial(next, s.address, now);
      next = r.state;
      effects.push(...r.effects);
    }
  }
  return { state: next, effects };
}
