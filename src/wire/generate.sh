#!/usr/bin/env bash
# Regenerates src/wire/generated/ from src/wire/proto/ (ts-proto on protobufjs's Reader/Writer).
# Usage: bash src/wire/generate.sh [output-dir]   (default src/wire/generated; tests pass a temp dir
# to prove the committed output is current). Running it twice gives no diff.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
out="${1:-$root/src/wire/generated}"
bin="$root/node_modules/.bin"

# Options: int64 as bigint, Timestamp kept as {seconds, nanos}, oneofs as tagged unions ($case),
# bytes as Uint8Array (env=both: no Buffer in the types), no JSON/partial/service code.
opts="forceLong=bigint,useDate=false,esModuleInterop=true,importSuffix=.js,outputJsonMethods=false"
opts="$opts,outputPartialMethods=false,outputServices=false,env=both,oneof=unions,useOptionals=none"
opts="$opts,outputTypeRegistry=false,exportCommonSymbols=false"

template=$(cat <<JSON
{"version":"v2","plugins":[{"local":"$bin/protoc-gen-ts_proto","out":"$out","opt":"$opts"}]}
JSON
)

# The output directory is wiped first: refuse anything that is not a dedicated directory.
case "$(cd "$(dirname "$out")" 2>/dev/null && pwd)/$(basename "$out")" in
  / | "$root" | "$root/src" | "$root/src/wire" | "$HOME") echo "refusing to regenerate into $out" >&2; exit 1 ;;
esac
rm -rf "$out"
mkdir -p "$out"
cd "$root/src/wire/proto"
"$bin/buf" generate --template "$template" .

# ts-proto stamps its own and protoc's versions into every file header; drop the lines so output
# does not depend on the installed buf release.
find "$out" -name '*.ts' -print0 | xargs -0 sed -i -e '/^\/\/ versions:/d' -e '/^\/\/   protoc-gen-ts_proto /d' -e '/^\/\/   protoc /d'

node "$root/src/wire/post-process-generated.mjs" "$out" "$root/src/wire/proto"
