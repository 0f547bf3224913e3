// Writes a NodeConfig as config.toml: Tendermint's sections and key names, a short comment
// above every key, durations in Go form. The text round-trips through the loader.

import { type AnyKeySpec, type NodeConfig, SCHEMA, SECTION_DOCS } from "./config-schema.js";
import { formatGoDuration, msToNanoseconds } from "./duration.js";

export function configToToml(config: NodeConfig): string {
  const lines: string[] = [
    "# rxbft configuration (Tendermint v0.34 layout). Every key is documented in docs/configuration.md.",
    "# Relative paths are relative to the node home. Keys marked (rxbft) are rxbft's own.",
    "",
  ];
  for (const [section, keys] of Object.entries(SCHEMA)) {
    const values = (section === "" ? config : config[section as keyof NodeConfig]) as Record<string, unknown>;
    lines.push(`####### ${SECTION_DOCS[section as keyof typeof SCHEMA]} #######`);
    if (section !== "") lines.push(`[${section}]`);
    lines.push("");
    for (const [name, spec] of Object.entries(keys as Record<string, AnyKeySpec>)) {
      lines.push(`# ${spec.rxbft ? "(rxbft) " : ""}${spec.doc}`);
      lines.push(`${name} = ${tomlValue(spec, values[name])}`);
      lines.push("");
    }
  }
  return lines.join("\n");
}

function tomlValue(spec: AnyKeySpec, value: unknown): string {
  switch (spec.kind) {
    case "bool":
      return value ? "true" : "false";
    case "int":
      return String(value);
    case "int-as-string":
      return tomlString(String(value));
    case "duration":
      return tomlString(formatGoDuration(msToNanoseconds(value as number)));
    case "string-list":
      return `[${(value as string[]).map(tomlString).join(", ")}]`;
    case "string":
      return tomlString(value as string);
  }
}

/** A TOML basic string. JSON's escapes (\", \\, \n, \uXXXX, …) are all valid TOML escapes. */
function tomlString(text: string): string {
  return JSON.stringify(text).replace(/\u007f/g, "\\u007F");
}
