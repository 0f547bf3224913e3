// CI's simulation seeds, second third (see seed-batch.ts).
import { describe } from "node:test";
import { CI_SEEDS, simulateSeeds } from "./seed-batch.js";

describe("simulation: seeds, second third", () => {
  simulateSeeds(CI_SEEDS / 3 + 1, (2 * CI_SEEDS) / 3);
});
