#!/bin/sh
//bin/true; export MALLOC_ARENA_MAX="${MALLOC_ARENA_MAX:-2}" MALLOC_MMAP_THRESHOLD_="${MALLOC_MMAP_THRESHOLD_:-131072}"
//bin/true; export MALLOC_TRIM_THRESHOLD_="${MALLOC_TRIM_THRESHOLD_:-131072}"; exec node "$0" "$@"
// Entry point of the `rxbft` program: hands argv to oclif, which reads oclif.manifest.json
// so that start-up does not scan or import every command.
//
// Run as a program (`rxbft`, `./bin/run.js`), the two lines above are shell: they set glibc's
// malloc defaults the node's memory bound rests on, each only when the environment has not set
// it, and start Node on this file, for which they are comments. glibc reads them once, at the
// process's start, so the program cannot set them for itself later. Two arenas instead of eight
// per core keep LevelDB's and libuv's threads from each holding freed memory of their own, and a
// fixed mmap threshold sends large buffers back to the system when freed (docs/configuration.md
// "Memory"). `node bin/run.js` skips them and leaves glibc's defaults.
import { execute } from "@oclif/core/execute";

await execute({ dir: import.meta.url });
