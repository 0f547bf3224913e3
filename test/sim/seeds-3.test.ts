// CI's simulation seeds, last third (see seed-batch.ts).
import { describe } from "node:test";
import { CI_SEEDS, simulateSeeds } from "./seed-batch.js";

describe("simulation: seeds, last third", () => {
  simulateSeeds((2 * CI_SEEDS) / 3 + 1, CI_SEEDS);
});
