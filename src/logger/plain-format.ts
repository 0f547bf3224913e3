// Tendermint's plain log line: `I[2026-01-02|15:04:05.000] message   module=consensus key=value`.
// Built from pino's JSON entry, so both formats share one pipeline.

const LEVEL_LETTER: Record<number, string> = { 10: "T", 20: "D", 30: "I", 40: "W", 50: "E", 60: "E" };
const SKIP = new Set(["level", "time", "msg", "pid", "hostname", "module"]);

export function plainLine(entry: Record<string, unknown>): string {
  const letter = LEVEL_LETTER[entry.level as number] ?? "I";
  const time = new Date(typeof entry.time === "number" ? entry.time : Date.now()).toISOString();
  const stamp = `${time.slice(0, 10)}|${time.slice(11, 23)}`;
  const message = String(entry.msg ?? "");
  const parts = [`${letter}[${stamp}] ${message.padEnd(44)}`];
  if (entry.module !== undefined) parts.push(`module=${value(entry.module)}`);
  for (const [key, field] of Object.entries(entry)) {
    if (!SKIP.has(key)) parts.push(`${key}=${value(field)}`);
  }
  return `${parts.join(" ")}\n`;
}

function value(field: unknown): string {
  if (typeof field === "string") return /[\s"=]/.test(field) || field === "" ? JSON.stringify(field) : field;
  if (typeof field === "object" && field !== null) {
    const error = field as { message?: unknown; type?: unknown };
    if (typeof error.message === "string" && typeof error.type === "string")
      return JSON.stringify(error.message);
    return JSON.stringify(field);
  }
  return String(field);
}
