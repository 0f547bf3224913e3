// The config module: the node home (where it is, its layout, its lock) and config.toml (every
// Tendermint v0.34 key with its default, rxbft's own keys, io-ts validation, the TOML writer,
// Go durations). Durations in NodeConfig are milliseconds.
export { defaultConfig, defaultMoniker } from "./config-defaults.js";
export {
  configFilePath,
  configFromToml,
  type FlagOverrides,
  type LoadConfigOptions,
  type LoadedConfig,
  loadConfig,
  resolveHomePath,
} from "./config-loader.js";
export { allKeys, type KeySpec, type NodeConfig, SCHEMA, type SectionName } from "./config-schema.js";
export { configToToml } from "./config-toml-writer.js";
export { formatGoDuration, msToNanoseconds, nanosecondsToMs, parseGoDuration } from "./duration.js";
export { ConfigError, type ConfigErrorCode } from "./errors.js";
export {
  DEFAULT_HOME_DIR,
  ensureHomeDirs,
  HOME_ENV_VAR,
  type NodePaths,
  nodePaths,
  resolveHome,
} from "./home.js";
export {
  acquireHomeLock,
  assertHomeUnlocked,
  type HomeLock,
  LOCK_FILE_NAME,
  type LockHolder,
  lockFilePath,
  readLockHolder,
} from "./home-lock.js";
