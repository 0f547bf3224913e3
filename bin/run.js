#!/usr/bin/env node
// Entry point of the `rxbft` program: hands argv to oclif, which reads oclif.manifest.json
// so that start-up does not scan or import every command.
import { execute } from "@oclif/core/execute";

await execute({ dir: import.meta.url });
