// Network tests that stop one validator of four: giving it a power of 1 beside the others' 10 in
// every home's genesis keeps it a signer, but rarely the proposer, so the three others do not wait
// out its proposal at every fourth height while it is away (long absences fit a loaded machine).
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";

export function weakenValidator(homes: readonly string[], name: string): void {
  for (const home of homes) {
    const file = join(home, "config", "genesis.json");
    const genesis = JSON.parse(readFileSync(file, "utf8")) as {
      validators: { name: string; power: string }[];
    };
    if (!genesis.validators.some((v) => v.name === name)) throw new Error(`${file}: no validator ${name}`);
    for (const v of genesis.validators) v.power = v.name === name ? "1" : "10";
    writeFileSync(file, JSON.stringify(genesis, null, 2));
  }
}
