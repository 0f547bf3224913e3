// The default configuration: Tendermint v0.34's defaults, the moniker being the host's name.
import { hostname } from "node:os";
import { type AnyKeySpec, type NodeConfig, SCHEMA } from "./config-schema.js";

export function defaultConfig(moniker: string = defaultMoniker()): NodeConfig {
  const config: Record<string, unknown> = {};
  for (const [section, keys] of Object.entries(SCHEMA)) {
    const target: Record<string, unknown> = section === "" ? config : {};
    for (const [name, spec] of Object.entries(keys as Record<string, AnyKeySpec>)) {
      target[name] = Array.isArray(spec.default) ? [...spec.default] : spec.default;
    }
    if (section !== "") config[section] = target;
  }
  const result = config as NodeConfig;
  result.moniker = moniker;
  return result;
}

/** The host name when it is a valid moniker (non-empty ASCII), else "anonymous" as Tendermint does. */
export function defaultMoniker(): string {
  try {
    const name = hostname();
    return /^[\x20-\x7e]{1,256}$/.test(name) ? name : "anonymous";
  } catch {
    return "anonymous";
  }
}
