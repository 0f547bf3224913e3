import { RxbftCommand } from "../cli/base-command.js";

export default class GenValidator extends RxbftCommand {
  static override description = `Generate a new validator key and print it as a priv_validator_key.json file.

Writes nothing: redirect the output into a file (mode 0600) to use it.`;
  static override aliases = ["gen-validator"];
  static override examples = [
    "<%= config.bin %> gen_validator",
    "(umask 077; <%= config.bin %> gen_validator > priv_validator_key.json)",
  ];

  async run(): Promise<void> {
    await this.parse(GenValidator);
    const { generatePrivValidatorKey, privValidatorKeyFileText } = await import(
      "../types/key-file-priv-validator.js"
    );
    process.stdout.write(privValidatorKeyFileText(generatePrivValidatorKey()));
  }
}
