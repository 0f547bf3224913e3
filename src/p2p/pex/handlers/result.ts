import type { PexEffect } from "../effect.js";
import type { PexState } from "../state.js";

export interface PexResult {
  state: PexState;
  effects: PexEffect[];
}
