// Shell completion for rxbft, generated from the command table oclif already has (the manifest):
// command and topic names, kebab/snake aliases, each command's flags, and file names for flag
// values and arguments. bash (a `complete -F` function) and zsh (a `#compdef` function on
// _arguments). Generated, so a new command or flag is completed without editing a script.
// (@oclif/plugin-autocomplete 4 needs @oclif/core 5 and keeps a cache under ~/.cache; this
// needs neither.)

export interface CompletionFlag {
  name: string;
  char?: string;
  /** An option (takes a value) rather than a boolean. */
  takesValue: boolean;
  description: string;
}

export interface CompletionCommand {
  /** The words that invoke it: ["rollback"], ["debug", "dump"]. */
  words: string[];
  description: string;
  flags: CompletionFlag[];
  /** Takes positional arguments (completed as file names). */
  takesArgs: boolean;
}

export type CompletionShell = "bash" | "zsh";
export const COMPLETION_SHELLS: readonly CompletionShell[] = ["bash", "zsh"];

/** The first line of a description, without characters the shells' quoting would trip on. */
function summary(text: string, max = 70, colons: "escape" | "keep" = "escape"): string {
  const first = (text.split("\n")[0] ?? "")
    .replace(/'/g, "\u2019")
    .replace(/[[\]"`$\\]/g, "")
    .trim();
  const cut = first.length > max ? `${first.slice(0, max - 1)}…` : first;
  // In a _describe item a colon ends the name; inside an _arguments [description] it is plain.
  return colons === "escape" ? cut.replace(/:/g, "\\:") : cut;
}

const functionName = (bin: string) => `_${bin.replace(/[^A-Za-z0-9_]/g, "_")}`;

export function completionScript(
  shell: CompletionShell,
  bin: string,
  commands: readonly CompletionCommand[],
): string {
  const unique = new Map<string, CompletionCommand>();
  for (const c of commands) if (!unique.has(c.words.join(" "))) unique.set(c.words.join(" "), c);
  const sorted = [...unique.values()].sort((a, b) => a.words.join(" ").localeCompare(b.words.join(" ")));
  return shell === "bash" ? bashScript(bin, sorted) : zshScript(bin, sorted);
}

function topLevelWords(commands: readonly CompletionCommand[]): string[] {
  return [...new Set(commands.map((c) => c.words[0]!))].sort();
}

function flagWords(command: CompletionCommand): string[] {
  const out: string[] = [];
  for (const flag of command.flags) {
    out.push(`--${flag.name}`);
    if (flag.char) out.push(`-${flag.char}`);
  }
  return out.sort();
}

function bashScript(bin: string, commands: readonly CompletionCommand[]): string {
  const fn = `${functionName(bin)}_complete`;
  const cases: string[] = [];
  const valueCases: string[] = [];
  const subcommands = new Map<string, string[]>();
  for (const c of commands) {
    if (c.words.length > 1)
      subcommands.set(c.words[0]!, [...(subcommands.get(c.words[0]!) ?? []), c.words[1]!]);
    cases.push(`    "${c.words.join(" ")}") flags="${flagWords(c).join(" ")}" ;;`);
    const valued = c.flags
      .filter((f) => f.takesValue)
      .flatMap((f) => [`--${f.name}`, ...(f.char ? [`-${f.char}`] : [])]);
    if (valued.length > 0) valueCases.push(`    "${c.words.join(" ")}") valued=" ${valued.join(" ")} " ;;`);
  }
  const topicCases = [...subcommands].map(
    ([topic, subs]) => `    ${topic}) words="${subs.sort().join(" ")}" ;;`,
  );
  return `# ${bin} completion for bash. Load it with: source <(${bin} completion bash)
# or install it: ${bin} completion bash > /etc/bash_completion.d/${bin}
${fn}() {
  local cur="\${COMP_WORDS[COMP_CWORD]}" prev="" cmd="" words="" flags="" valued="" i
  (( COMP_CWORD > 0 )) && prev="\${COMP_WORDS[COMP_CWORD-1]}"
  COMPREPLY=()
  if (( COMP_CWORD == 1 )); then
    COMPREPLY=( $(compgen -W "${topLevelWords(commands).join(" ")}" -- "$cur") )
    return 0
  fi
  cmd="\${COMP_WORDS[1]}"
  case "$cmd" in
${topicCases.join("\n")}
  esac
  if [[ -n "$words" ]]; then
    if (( COMP_CWORD == 2 )); then
      COMPREPLY=( $(compgen -W "$words" -- "$cur") )
      return 0
    fi
    cmd="$cmd \${COMP_WORDS[2]}"
  fi
  case "$cmd" in
${cases.join("\n")}
  esac
  case "$cmd" in
${valueCases.join("\n")}
  esac
  # A flag's value: file names (the shell's default).
  if [[ -n "$prev" && "$valued" == *" $prev "* ]]; then
    COMPREPLY=( $(compgen -f -- "$cur") )
    return 0
  fi
  if [[ "$cur" == -* ]]; then
    COMPREPLY=( $(compgen -W "$flags" -- "$cur") )
    return 0
  fi
  COMPREPLY=( $(compgen -f -- "$cur") )
  return 0
}
complete -o filenames -F ${fn} ${bin}
`;
}

function zshFlagSpec(flag: CompletionFlag): string[] {
  const desc = summary(flag.description, 60, "keep");
  const value = flag.takesValue ? `:${flag.name}:_files` : "";
  const names = [`--${flag.name}`, ...(flag.char ? [`-${flag.char}`] : [])];
  return names.map((n) => `'${n}[${desc}]${value}'`);
}

function zshScript(bin: string, commands: readonly CompletionCommand[]): string {
  const fn = functionName(bin);
  const top = new Map<string, string>();
  const subcommands = new Map<string, string[]>();
  for (const c of commands) {
    const word = c.words[0]!;
    if (c.words.length === 1) top.set(word, summary(c.description));
    else {
      if (!top.has(word)) top.set(word, `${word} commands`);
      subcommands.set(word, [...(subcommands.get(word) ?? []), `'${c.words[1]}:${summary(c.description)}'`]);
    }
  }
  const topList = [...top].sort(([a], [b]) => a.localeCompare(b)).map(([w, d]) => `    '${w}:${d}'`);
  const topicCases = [...subcommands].map(
    ([topic, subs]) => `    ${topic})
      if (( CURRENT == 3 )); then
        local -a subcommands=(${subs.join(" ")})
        _describe -t commands '${topic} command' subcommands
        return
      fi
      cmd="${topic} \${words[3]}"
      ;;`,
  );
  const cases = commands.map((c) => {
    const specs = c.flags.flatMap(zshFlagSpec);
    if (c.takesArgs) specs.push("'*:file:_files'");
    return `    "${c.words.join(" ")}")
      _arguments -s \\
        ${specs.join(" \\\n        ")}
      ;;`;
  });
  return `#compdef ${bin}
# ${bin} completion for zsh. Load it with: source <(${bin} completion zsh)
# or install it as a file named _${bin} in a directory of your $fpath.
${fn}() {
  local cmd
  if (( CURRENT == 2 )); then
    local -a commands=(
${topList.join("\n")}
    )
    _describe -t commands '${bin} command' commands
    return
  fi
  cmd="\${words[2]}"
  case "$cmd" in
${topicCases.join("\n")}
  esac
  # The command's own words are behind us: complete from the first word after them.
  local skip=\${#\${(z)cmd}}
  shift $skip words
  (( CURRENT -= skip ))
  case "$cmd" in
${cases.join("\n")}
    *) _files ;;
  esac
}
if [[ "\${zsh_eval_context[-1]}" == loadautofunc ]]; then
  ${fn} "$@"
else
  compdef ${fn} ${bin}
fi
`;
}
