// A height given on the command line: a positive decimal integer, checked with the flag's name.
import { CliError } from "../cli/errors.js";

export function parseHeightFlag(flag: string, text: string | undefined): bigint | undefined {
  if (text === undefined) return undefined;
  if (!/^[1-9]\d{0,18}$/.test(text)) {
    throw new CliError(
      "CLI_FLAG_INVALID",
      `flag ${flag}: expected a height (a positive integer), got "${text}"`,
    );
  }
  return BigInt(text);
}
