// The interactive loop of `rxbft replay --console`: reads command lines (a terminal or a pipe),
// prints what each does, ends at `quit` or at the end of the input.
import { createInterface } from "node:readline";
import { ReplayConsole } from "./console-commands.js";
import type { OpenedTimeline } from "./console-sources.js";

export async function runReplayConsole(
  opened: OpenedTimeline,
  input: NodeJS.ReadableStream,
  output: NodeJS.WritableStream,
): Promise<void> {
  const replay = new ReplayConsole(opened.timeline);
  const print = (lines: string[]) => {
    if (lines.length > 0) output.write(`${lines.join("\n")}\n`);
  };
  print([`replaying ${opened.description}`, replay.where(), "type help for the commands"]);
  const rl = createInterface({ input, output, prompt: "replay> ", terminal: false });
  rl.prompt();
  for await (const line of rl) {
    const { output: lines, quit } = replay.execute(line);
    print(lines);
    if (quit) break;
    rl.prompt();
  }
  rl.close();
}
