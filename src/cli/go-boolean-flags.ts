// Go's flag package writes booleans as `--flag`, `--flag=true` or `--flag=false`; oclif's are
// `--flag` and `--no-flag`. Rewriting the Go forms lets Tendermint's command lines work as they are.

/** Rewrites `--name=true|false` of the boolean flags in `flags` into `--name` / `--no-name`. */
export function goBooleanArgs(
  argv: readonly string[],
  flags: Readonly<Record<string, { type: string }>>,
): string[] {
  const out: string[] = [];
  for (const arg of argv) {
    if (arg === "--") {
      out.push(...argv.slice(out.length));
      break;
    }
    const match = /^--([^=]+)=(true|false)$/.exec(arg);
    if (!match || flags[match[1] as string]?.type !== "boolean") out.push(arg);
    else out.push(match[2] === "true" ? `--${match[1]}` : `--no-${match[1]}`);
  }
  return out;
}
