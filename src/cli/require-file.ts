// A clear error for a home that lacks a file a command reads, saying how to make it.
import { existsSync } from "node:fs";
import { CliError } from "./errors.js";

export function requireFile(file: string, what: string, remedy: string): void {
  if (!existsSync(file)) throw new CliError("CLI_NOT_INITIALISED", `${file}: no ${what} here; ${remedy}`);
}
