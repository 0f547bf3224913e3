// Start-up time of the rxbft program: `rxbft --help` and `rxbft version`, beside bare `node -e 0`
// measured in the same run, interleaved so load on the machine hits all three alike. Reports the
// median wall time and the median CPU time (user + system, read inside the child at exit: less
// sensitive to other processes on a shared machine), each as a ratio and a difference in ms.
import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

const RUNS = 15;
const TIME_LIMIT_MS = 20_000;
const bin = fileURLToPath(new URL("../../bin/run.js", import.meta.url));

// Preloaded into each child: prints its own CPU time when it exits.
const probe = join(mkdtempSync(join(tmpdir(), "rxbft-bench-")), "cpu-probe.mjs");
writeFileSync(
  probe,
  [
    'import { writeSync } from "node:fs";',
    'process.on("exit", () => {',
    "  const usage = process.cpuUsage();",
    '  writeSync(2, "\\nCPU_US " + (usage.user + usage.system) + "\\n");',
    "});",
    "",
  ].join("\n"),
);

const cases: Record<string, string[]> = {
  "node -e 0": ["-e", "0"],
  "rxbft --help": [bin, "--help"],
  "rxbft version": [bin, "version"],
};

function timeOnce(args: string[]): { wall: number; cpu: number } {
  const start = process.hrtime.bigint();
  const result = spawnSync(process.execPath, ["--import", probe, ...args], {
    stdio: ["ignore", "ignore", "pipe"],
  });
  const wall = Number(process.hrtime.bigint() - start) / 1e6;
  if (result.status !== 0)
    throw new Error(`${args.join(" ")} exited with ${result.status} (run npm run build first)`);
  const cpu = /CPU_US (\d+)/.exec(result.stderr.toString());
  return { wall, cpu: cpu ? Number(cpu[1]) / 1000 : Number.NaN };
}

const samples: Record<string, { wall: number[]; cpu: number[] }> = Object.fromEntries(
  Object.keys(cases).map((name) => [name, { wall: [], cpu: [] }]),
);
const started = Date.now();
for (let run = 0; run < RUNS && Date.now() - started < TIME_LIMIT_MS; run++) {
  for (const [name, args] of Object.entries(cases)) {
    const { wall, cpu } = timeOnce(args);
    samples[name]!.wall.push(wall);
    samples[name]!.cpu.push(cpu);
  }
}

const median = (values: number[]) =>
  [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] as number;
const base = samples["node -e 0"]!;
const baseWall = median(base.wall);
const baseCpu = median(base.cpu);
const results: Record<string, unknown> = {
  runs: base.wall.length,
  baseline: { wall_ms: baseWall, cpu_ms: baseCpu },
};
console.log(`runs: ${base.wall.length} of each, interleaved`);
console.log(
  `${"node -e 0 (baseline)".padEnd(22)} wall ${baseWall.toFixed(1)} ms   cpu ${baseCpu.toFixed(1)} ms`,
);
for (const name of ["rxbft --help", "rxbft version"]) {
  const wall = median(samples[name]!.wall);
  const cpu = median(samples[name]!.cpu);
  console.log(
    `${name.padEnd(22)} wall ${wall.toFixed(1)} ms (${(wall / baseWall).toFixed(2)}×, +${(wall - baseWall).toFixed(1)} ms)   ` +
      `cpu ${cpu.toFixed(1)} ms (${(cpu / baseCpu).toFixed(2)}×, +${(cpu - baseCpu).toFixed(1)} ms)`,
  );
  results[name] = {
    wall_ms: wall,
    wall_ratio: wall / baseWall,
    wall_extra_ms: wall - baseWall,
    cpu_ms: cpu,
    cpu_ratio: cpu / baseCpu,
    cpu_extra_ms: cpu - baseCpu,
  };
}
mkdirSync("bench-results", { recursive: true });
writeFileSync("bench-results/cli-startup.json", `${JSON.stringify(results, null, 2)}\n`);
