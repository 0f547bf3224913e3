// Watches a synchronous piece of work (a simulated run) for every way real time or real
// asynchrony can reach it: clock reads (Date.now, performance.now, process.hrtime), Math.random,
// and work handed to the event loop (setTimeout, setInterval, setImmediate, queueMicrotask,
// process.nextTick, a promise's then). A run is a function of its seed only if it uses none of
// them: a run folds everything inside one synchronous scheduler flush, so an answer put on the
// event loop arrives after the run has ended (rxjs reports an error thrown in a subscriber that
// way), and a clock read differs between a quiet and a loaded machine.
//
// With `perturb`, the clocks read hours ahead and Math.random draws another sequence, so a
// result that depended on them would differ from an unperturbed run even if it were not counted.
import { Prng } from "./prng.js";

export interface RealTimeUse {
  /** Calls per primitive, only those called at least once. */
  readonly calls: ReadonlyMap<string, number>;
}

export interface GuardOptions {
  /** Shift the clocks and replace Math.random's sequence while the work runs. */
  readonly perturb?: boolean;
}

/** How far the perturbed clocks are ahead of the real ones. */
const CLOCK_SHIFT_MS = 5 * 3600_000 + 1234.5678;

type Restore = () => void;

function replace<T extends object, K extends keyof T>(target: T, key: K, value: T[K]): Restore {
  const own = Object.getOwnPropertyDescriptor(target, key);
  Object.defineProperty(target, key, { value, writable: true, configurable: true, enumerable: false });
  return () => {
    if (own) Object.defineProperty(target, key, own);
    else delete target[key];
  };
}

/** Runs `work` with every real-time primitive counted (and, with `perturb`, shifted). */
export function guardRealTime<T>(work: () => T, options: GuardOptions = {}): { result: T; use: RealTimeUse } {
  const calls = new Map<string, number>();
  const count = (name: string) => calls.set(name, (calls.get(name) ?? 0) + 1);
  const shift = options.perturb ? CLOCK_SHIFT_MS : 0;
  const random = new Prng(0x5eed_cafe);

  const realDateNow = Date.now;
  const realPerfNow = performance.now.bind(performance);
  const realRandom = Math.random;
  const realHrtime = process.hrtime;
  const realHrtimeBigint = process.hrtime.bigint;
  const realThen = Promise.prototype.then;
  const g = globalThis as unknown as Record<string, (...args: unknown[]) => unknown>;
  // biome-ignore lint/suspicious/noExplicitAny: wraps functions of every signature
  const passThrough = (name: string, real: (...args: any[]) => unknown) =>
    function (this: unknown, ...args: unknown[]) {
      count(name);
      return real.apply(this, args);
    };

  const hrtime = Object.assign(
    (previous?: [number, number]) => {
      count("process.hrtime");
      const [s, ns] = realHrtime(previous);
      return shift ? [s + Math.floor(shift / 1000), ns] : [s, ns];
    },
    {
      bigint: () => {
        count("process.hrtime.bigint");
        return realHrtimeBigint() + BigInt(Math.floor(shift * 1e6));
      },
    },
  );
  const restores: Restore[] = [
    replace(Date, "now", () => {
      count("Date.now");
      return realDateNow() + Math.floor(shift);
    }),
    replace(performance, "now", () => {
      count("performance.now");
      return realPerfNow() + shift;
    }),
    replace(Math, "random", () => {
      count("Math.random");
      return options.perturb ? random.next() : realRandom();
    }),
    replace(process, "hrtime", hrtime as unknown as typeof process.hrtime),
    replace(
      process,
      "nextTick",
      passThrough("process.nextTick", process.nextTick) as typeof process.nextTick,
    ),
    replace(Promise.prototype, "then", passThrough("Promise.then", realThen) as typeof realThen),
    ...["setTimeout", "setInterval", "setImmediate", "queueMicrotask"].map((name) =>
      replace(g, name, passThrough(name, g[name]!)),
    ),
  ];
  try {
    return { result: work(), use: { calls } };
  } finally {
    for (const restore of restores.reverse()) restore();
  }
}

/** "setTimeout ×1, Date.now ×3", or undefined when nothing was used. */
export function describeRealTimeUse(use: RealTimeUse): string | undefined {
  if (use.calls.size === 0) return undefined;
  return [...use.calls].map(([name, n]) => `${name} ×${n}`).join(", ");
}
