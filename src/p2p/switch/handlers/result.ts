import type { SwitchEffect } from "../effect.js";
import type { SwitchState } from "../state.js";

export interface SwitchResult {
  state: SwitchState;
  effects: SwitchEffect[];
}
