// A progress line for long operator runs (reindex-event): a bar, done/total, percent, rate and
// time left. On a terminal it redraws one line in place; elsewhere (a log file, a test) it
// prints a line at most every `intervalMs` and always the last one. The clock is passed in.

export interface ProgressOptions {
  total: number;
  /** What is counted ("heights"). */
  unit: string;
  write: (text: string) => void;
  /** Redraw in place with "\r" (a terminal). */
  interactive: boolean;
  now: () => number;
  intervalMs?: number;
  width?: number;
}

export interface Progress {
  /** Records `done` items (absolute), with `extra` counts shown after the rate (e.g. txs). */
  update(done: number, extra?: Record<string, number>): void;
  /** Prints the final line (and ends the in-place line). */
  finish(): void;
}

export function formatProgressLine(
  done: number,
  total: number,
  unit: string,
  elapsedMs: number,
  extra: Record<string, number> = {},
  width = 30,
): string {
  const fraction = total <= 0 ? 1 : Math.min(1, done / total);
  const filled = Math.round(fraction * width);
  const bar = `${"#".repeat(filled)}${".".repeat(width - filled)}`;
  const seconds = elapsedMs / 1000;
  const rate = seconds > 0 ? done / seconds : 0;
  let line = `[${bar}] ${done}/${total} ${unit} ${(fraction * 100).toFixed(1)}% ${formatRate(rate)} ${unit}/s`;
  for (const [name, count] of Object.entries(extra)) {
    line += `, ${count} ${name} (${formatRate(seconds > 0 ? count / seconds : 0)}/s)`;
  }
  if (done < total && rate > 0) line += `, ${formatDuration((total - done) / rate)} left`;
  else if (done >= total) line += `, ${formatDuration(seconds)}`;
  return line;
}

function formatRate(rate: number): string {
  if (rate >= 10_000) return `${(rate / 1000).toFixed(1)}k`;
  return rate >= 100 ? rate.toFixed(0) : rate.toFixed(1);
}

function formatDuration(seconds: number): string {
  if (seconds < 60) return `${seconds.toFixed(1)}s`;
  const m = Math.floor(seconds / 60);
  if (m < 60) return `${m}m${Math.round(seconds % 60)}s`;
  return `${Math.floor(m / 60)}h${m % 60}m`;
}

export function createProgress(options: ProgressOptions): Progress {
  const started = options.now();
  const interval = options.intervalMs ?? (options.interactive ? 100 : 1000);
  let lastDrawn = Number.NEGATIVE_INFINITY;
  let done = 0;
  let extra: Record<string, number> = {};
  const draw = () => {
    const line = formatProgressLine(
      done,
      options.total,
      options.unit,
      options.now() - started,
      extra,
      options.width,
    );
    options.write(options.interactive ? `\r${line}` : `${line}\n`);
  };
  return {
    update(count, counts) {
      done = count;
      if (counts) extra = counts;
      const now = options.now();
      if (now - lastDrawn >= interval) {
        lastDrawn = now;
        draw();
      }
    },
    finish() {
      draw();
      if (options.interactive) options.write("\n");
    },
  };
}
