// CI's simulation seeds, first third (see seed-batch.ts): 4–7 validators, 30 heights each, the
// fault mixes of scenario.ts (calm, lossy, partition, crash, byzantine, mixed) by seed.
import { describe } from "node:test";
import { CI_SEEDS, simulateSeeds } from "./seed-batch.js";

describe("simulation: seeds, first third", () => {
  simulateSeeds(1, CI_SEEDS / 3);
});
