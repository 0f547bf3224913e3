import { Flags } from "@oclif/core";
import { RxbftCommand } from "../cli/base-command.js";

export default class Replay extends RxbftCommand {
  static override description = `Fold the home's consensus log through the consensus state machine, offline.

No network, signer or app is used: every input the node folded is read from data/cs.wal/ and
folded again, with the same restart rule the node applies. Prints each decided height (round,
block hash, txs, inputs) and a summary. The log is only read; a torn last record ends the replay
with a note. Safe to run while the node runs (it reads what is on disk).

--events prints, instead of the heights, every event the node published (the NewBlock, Tx,
NewRound, Vote… that RPC subscriptions receive) as one JSON line each, in the order the node
published them: {"type", "data" (as subscriptions encode it in rpc.compat's form), "events"}.

--console opens an interactive session instead (docs/debugging.md): step forward and back by
input, round or height, see each input's state diff, the rules of the algorithm that fired and
the effects; find the next input matching a filter; print a height's timeline. It reads commands
from stdin (a terminal or a pipe). --sim opens one validator's log of a recorded simulation run.`;
  static override examples = [
    "<%= config.bin %> replay",
    "<%= config.bin %> replay --home ./node1 --quiet",
    "<%= config.bin %> replay --events > events.jsonl",
    "<%= config.bin %> replay --console",
    "<%= config.bin %> replay --console --sim test/sim/failures/1234 --validator 2",
  ];
  static override flags = {
    quiet: Flags.boolean({ description: "print only the summary", default: false }),
    events: Flags.boolean({
      description:
        "print every event the node published (NewBlock, Tx, NewRound, Vote, …) as JSON lines, re-emitted from the log and the stores",
      default: false,
    }),
    console: Flags.boolean({
      description: "an interactive console over the log (commands on stdin)",
      default: false,
    }),
    sim: Flags.string({
      description:
        "with --console: a recorded simulation run's directory (scenario.json, v<i>/) instead of the home",
    }),
    validator: Flags.integer({ description: "with --sim: which validator's log (0-based)", default: 0 }),
    "snapshot-every": Flags.integer({
      description: "with --console: keep the state every N inputs (stepping back refolds at most N)",
      default: 64,
      min: 1,
    }),
  };

  async run(): Promise<void> {
    const { flags } = await this.parse(Replay);
    if (flags.console) return this.console(flags);
    if (flags.sim !== undefined) this.error("--sim needs --console", { exit: 2 });
    const [{ resolveHome, nodePaths }, { loadConfig }, { replayHome }] = await Promise.all([
      import("../config/home.js"),
      import("../config/config-loader.js"),
      import("../../streams/replay-home.js"),
    ]);
    const home = resolveHome(flags.home);
    const { config } = loadConfig(home);
    const summary = await replayHome(
      nodePaths(home, config),
      config,
      (line) => {
        if (!flags.quiet && !flags.events) this.log(line);
      },
      flags.events ? { printEvent: (line) => this.log(line) } : {},
    );
    this.log(summary);
  }

  private async console(flags: { home?: string; sim?: string; validator: number; "snapshot-every": number }) {
    const [{ runReplayConsole }, sources] = await Promise.all([
      import("../../streams/replay-console/console-session.js"),
      import("../../streams/replay-console/console-sources.js"),
    ]);
    const every = flags["snapshot-every"];
    let opened: Awaited<ReturnType<typeof sources.openHomeTimeline>>;
    if (flags.sim !== undefined) {
      opened = await sources.openSimulationTimeline(flags.sim, flags.validator, every);
    } else {
      const [{ resolveHome, nodePaths }, { loadConfig }] = await Promise.all([
        import("../config/home.js"),
        import("../config/config-loader.js"),
      ]);
      const home = resolveHome(flags.home);
      const { config } = loadConfig(home);
      opened = await sources.openHomeTimeline(nodePaths(home, config), config, every);
    }
    await runReplayConsole(opened, process.stdin, process.stdout);
  }
}
