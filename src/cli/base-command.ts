// The base of every rxbft command: the global flags --home, --log_level and --trace, and one
// error policy: an error is one clear line on stderr and exit code 1; --trace adds the stack.
// Kept light: it is imported at start-up by every command, so it pulls in nothing but oclif.
import { Command, Errors, Flags } from "@oclif/core";

export abstract class RxbftCommand extends Command {
  static override baseFlags = {
    home: Flags.string({
      description: "node home directory [default: $RXBFT_HOME, else ~/.rxbft]",
      helpGroup: "GLOBAL",
    }),
    log_level: Flags.string({
      description:
        'log level, e.g. "info" or "consensus:debug,p2p:none,*:info" [default: config.toml log_level]',
      helpGroup: "GLOBAL",
    }),
    trace: Flags.boolean({
      description:
        "print the full stack trace of an error; with `node`, also log each upon-rule of the consensus algorithm that fires, with its paper line, at debug level",
      default: false,
      helpGroup: "GLOBAL",
    }),
  };

  protected override async catch(error: Error & { exitCode?: number }): Promise<unknown> {
    if (error instanceof Errors.ExitError) throw error;
    const trace = this.argv.includes("--trace");
    const message = error.message || String(error);
    const ours = typeof (error as { code?: unknown }).code === "string" && error.name !== "Error";
    const parseError = error instanceof Errors.CLIError;
    process.stderr.write(`Error: ${message}\n`);
    if (trace && error.stack) process.stderr.write(`${error.stack}\n`);
    else if (!ours && !parseError)
      process.stderr.write("(an unexpected error: run again with --trace for details)\n");
    return this.exit(1);
  }
}
