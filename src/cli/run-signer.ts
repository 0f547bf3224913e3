// The body of `rxbft signer`: a remote signer for one validator. It reads the home's
// priv_validator_key.json and priv_validator_state.json (the same files, the same double-sign
// rules and the same durable state writes as the node's file signer), takes the home's lock so
// no node or second signer can sign from the same state file, dials the node's
// priv_validator_laddr and answers it, dialling again whenever the node goes away. SIGINT or
// SIGTERM stops it after the request under way.
import { existsSync } from "node:fs";
import { upperHex } from "../bytes.js";
import { loadConfig } from "../config/config-loader.js";
import { nodePaths } from "../config/home.js";
import { acquireHomeLock } from "../config/home-lock.js";
import { createLogger } from "../logger/index.js";
import { FileSigner } from "../privval/file-signer.js";
import { parseSignerAddress } from "../privval/remote/address.js";
import { RemoteSignerServer } from "../privval/remote/signer-server.js";
import { parseGenesisFile } from "../types/genesis.js";
import { readPrivValidatorKey } from "../types/key-file-priv-validator.js";
import { CliError } from "./errors.js";
import { requireFile } from "./require-file.js";

export interface RunSignerOptions {
  home: string;
  /** The node's priv_validator_laddr: tcp://host:port or unix:///path. */
  node: string;
  /** Defaults to the chain ID of the home's genesis.json. */
  chainId?: string;
  logLevel?: string;
}

/** Runs until SIGINT/SIGTERM; resolves to the exit code. */
export async function runSigner(options: RunSignerOptions): Promise<number> {
  const { home } = options;
  const node = parseSignerAddress(options.node, "--node").text;
  const { config } = loadConfig(home, options.logLevel ? { log_level: options.logLevel } : {}, {
    flagNames: { log_level: "log_level" },
  });
  const logger = createLogger({ level: config.log_level, format: config.log_format });
  const log = logger.child("privval");
  const paths = nodePaths(home, config);
  requireFile(
    paths.privValidatorKeyFile,
    "validator key",
    "run `rxbft init` or copy the validator's key here",
  );
  if (!existsSync(paths.privValidatorStateFile)) {
    // Starting over at height 0 beside an existing key could sign twice: never invent this file.
    throw new CliError(
      "CLI_NOT_INITIALISED",
      `${paths.privValidatorStateFile}: the validator's signing state is missing; copy it along with the key (never start a used key from a fresh state)`,
    );
  }
  let chainId = options.chainId;
  if (chainId === undefined) {
    if (!existsSync(paths.genesisFile)) {
      throw new CliError(
        "CLI_FLAG_INVALID",
        `--chain-id is required: there is no ${paths.genesisFile} to read the chain ID from`,
      );
    }
    chainId = parseGenesisFile(paths.genesisFile).chainId;
  }
  const key = readPrivValidatorKey(paths.privValidatorKeyFile);
  const lock = acquireHomeLock(paths.dataDir);
  try {
    const signer = FileSigner.fromStateFile(key.privateKey, paths.privValidatorStateFile);
    await signer.warmUp();
    const last = signer.lastSignState;
    log.info("starting remote signer", {
      node,
      chain_id: chainId,
      address: upperHex(signer.address),
      last_signed: `${last.height}/${last.round}/${last.step}`,
    });
    const server = new RemoteSignerServer({ node, chainId, signer, logger: log });
    server.start();
    const signal = await new Promise<NodeJS.Signals>((resolve) => {
      process.once("SIGINT", resolve);
      process.once("SIGTERM", resolve);
    });
    log.info("captured signal, stopping", { signal });
    await server.stop();
    await signer.close();
    log.info("remote signer stopped", { answered: server.answered });
    return 0;
  } finally {
    lock.release();
  }
}
