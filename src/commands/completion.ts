import { Args } from "@oclif/core";
import { RxbftCommand } from "../cli/base-command.js";

export default class Completion extends RxbftCommand {
  static override description = `Print a shell completion script for bash or zsh.

Completes command names (with their kebab and snake aliases), the debug topic's commands, each
command's flags, and file names for flag values and arguments. Generated from this build's
command table, so it always matches the installed rxbft.`;
  static override examples = [
    "source <(<%= config.bin %> completion bash)          # this bash session",
    "<%= config.bin %> completion bash > /etc/bash_completion.d/<%= config.bin %>",
    "source <(<%= config.bin %> completion zsh)           # this zsh session (after compinit)",
    "<%= config.bin %> completion zsh > ~/.zsh/completions/_<%= config.bin %>   # a directory in $fpath",
  ];
  static override args = {
    shell: Args.string({ description: "the shell", required: true, options: ["bash", "zsh"] }),
  };

  async run(): Promise<void> {
    const { args } = await this.parse(Completion);
    const { completionScript } = await import("../operations/completion-script.js");
    const commands = this.config.commands
      .filter((c) => !c.hidden)
      .flatMap((c) => {
        const flags = Object.values(c.flags ?? {})
          .filter((f) => !f.hidden)
          .map((f) => ({
            name: f.name,
            ...(f.char ? { char: f.char } : {}),
            takesValue: f.type === "option",
            description: f.summary ?? f.description ?? "",
          }));
        const takesArgs = Object.keys(c.args ?? {}).length > 0;
        const description = c.summary ?? c.description ?? "";
        return [c.id, ...(c.aliases ?? [])].map((id) => ({
          words: id.split(":"),
          description,
          flags,
          takesArgs,
        }));
      });
    process.stdout.write(completionScript(args.shell as "bash" | "zsh", this.config.bin, commands));
  }
}
