// The versions rxbft reports: its own release, and the Tendermint protocol versions it speaks.
import { existsSync, readFileSync } from "node:fs";

// This file runs from src/ under tsx and from dist/src/ when built: package.json is one or two
// levels up respectively.
const packageJsonUrl = [
  new URL("../package.json", import.meta.url),
  new URL("../../package.json", import.meta.url),
].find((url) => existsSync(url));
if (!packageJsonUrl) throw new Error(`rxbft: package.json not found above ${import.meta.url}`);
const packageJson = JSON.parse(readFileSync(packageJsonUrl, "utf8")) as { version: string };

/** rxbft's own release (package.json). */
export const RXBFT_VERSION: string = packageJson.version;
/** The Tendermint release line whose RPC and wire rxbft matches; clients choose decoders by it. */
export const TENDERMINT_COMPAT_VERSION = "0.34.24";
/** Block protocol version carried in every header. */
export const BLOCK_PROTOCOL = 11;
/** P2P protocol version carried in NodeInfo. */
export const P2P_PROTOCOL = 8;
/** ABCI semver of the v0.34 socket protocol. */
export const ABCI_SEMVER = "0.17.0";
