// Post-processes ts-proto's output (run by generate.sh after buf generate) so the codecs are
// wire-identical to Tendermint v0.34's gogoproto and fast enough:
// 1. non-nullable fields (proto/non-nullable-fields.txt) are typed `T` rather than
//    `T | undefined`, always encoded (an empty message still writes its tag and a zero length,
//    which the header hash and the BlockResponse vector depend on), and filled with the empty
//    message after decoding when the sender left them out;
// 2. empty packed repeated scalars are omitted, as Go does (omitEmptyPacked);
// 3. int64s convert at the bit level, not through decimal strings (fastLongs);
// 4. one shared empty bytes array replaces a fresh one per field per decode (sharedEmptyBytes).
// Steps 1 and 3 throw when the generated code is not in the shape they expect, so a ts-proto upgrade
// fails loudly instead of silently changing bytes.
// Usage: node post-process-generated.mjs <generated-dir> <proto-dir>
import { readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { join, relative } from "node:path";

const [outDir, protoDir] = process.argv.slice(2);
if (!outDir || !protoDir) throw new Error("usage: post-process-generated.mjs <generated-dir> <proto-dir>");

const wanted = readFileSync(join(protoDir, "non-nullable-fields.txt"), "utf8")
  .split("\n")
  .map((line) => line.trim())
  .filter((line) => line !== "" && !line.startsWith("#"));

const camel = (snake) => snake.replace(/_([a-z0-9])/g, (_, c) => c.toUpperCase());

/** Map "tendermint.types" → ["Vote.block_id", …] */
const byPackage = new Map();
for (const entry of wanted) {
  const parts = entry.split(".");
  const field = parts.pop();
  const message = parts.pop();
  const pkg = parts.join(".");
  if (!byPackage.has(pkg)) byPackage.set(pkg, []);
  byPackage.get(pkg).push({ message, field: camel(field), entry });
}

function walk(dir) {
  return readdirSync(dir).flatMap((name) => {
    const full = join(dir, name);
    return statSync(full).isDirectory() ? walk(full) : full.endsWith(".ts") ? [full] : [];
  });
}

/** Returns [start, end) of the block that opens with `opener` and closes with `closer`. */
function block(text, opener, closer, entry) {
  const start = text.indexOf(opener);
  if (start < 0) throw new Error(`${entry}: cannot find "${opener.trim()}"`);
  const end = text.indexOf(closer, start);
  if (end < 0) throw new Error(`${entry}: unterminated "${opener.trim()}"`);
  return [start, end + closer.length];
}

function replaceOnce(text, [start, end], from, to, entry) {
  const segment = text.slice(start, end);
  if (!segment.includes(from)) throw new Error(`${entry}: expected "${from}" in generated code`);
  return text.slice(0, start) + segment.replace(from, to) + text.slice(end);
}

/**
 * ts-proto writes a packed repeated scalar's tag and a zero length even when the list is empty;
 * Go writes nothing. Guard each packed block so an empty list is omitted, as proto3 requires.
 */
function omitEmptyPacked(text) {
  return text.replace(
    /\n {4}writer\.uint32\((\d+)\)\.fork\(\);\n {4}for \(const v of message\.(\w+)\) \{\n([\s\S]*?)\n {4}\}\n {4}writer\.ldelim\(\);\n/g,
    (_, tag, field, body) =>
      `\n    if (message.${field}.length !== 0) {\n      writer.uint32(${tag}).fork();\n      for (const v of message.${field}) {\n${body.replace(/^/gm, "  ")}\n      }\n      writer.ldelim();\n    }\n`,
  );
}

/**
 * ts-proto (forceLong=bigint) passes int64s to protobufjs as decimal strings and reads them back
 * through Long.toString(), which made a vote encode+decode several times slower than protobufjs
 * reflection. Swap both conversions for bit-level ones with a fast path for values within ±2^53.
 */
function fastLongs(text) {
  const before = text;
  text = text.replace(
    /\.(int64|uint64|sfixed64|fixed64|sint64)\(([\w.!]+)\.toString\(\)\)/g,
    ".$1(bigintToLong($2))",
  );
  text = text.replace(
    "function longToBigint(long: Long) {\n  return BigInt(long.toString());\n}\n",
    `function longToBigint(long: Long): bigint {
  const high = long.high;
  if (high >= -0x200000 && high < 0x200000 && !(long.unsigned && high < 0)) {
    return BigInt(high * 4294967296 + (long.low >>> 0));
  }
  const bits = (BigInt(high >>> 0) << 32n) | BigInt(long.low >>> 0);
  return long.unsigned ? bits : BigInt.asIntN(64, bits);
}
`,
  );
  text = text.replace(/longToBigint\(reader\.(int64|uint64)\(\) as Long\)/g, (_, kind) =>
    kind === "int64" ? "readVarint64(reader, false)" : "readVarint64(reader, true)",
  );
  if (text.includes("readVarint64(reader")) {
    text = text.replace(
      "\nif (_m0.util.Long !== Long) {",
      `
// Reads an int64/uint64 varint straight into a bigint: values below 2^49 (up to 7 bytes) are
// summed exactly in a double without allocating a Long; longer ones take protobufjs's path.
function readVarint64(reader: _m0.Reader, unsigned: boolean): bigint {
  const start = reader.pos;
  const buf = reader.buf;
  let value = 0;
  let scale = 1;
  for (let pos = start; pos < start + 7 && pos < reader.len; pos++) {
    const b = buf[pos]!;
    value += (b & 0x7f) * scale;
    if (b < 0x80) {
      reader.pos = pos + 1;
      return BigInt(value);
    }
    scale *= 128;
  }
  return longToBigint((unsigned ? reader.uint64() : reader.int64()) as Long);
}

if (_m0.util.Long !== Long) {`,
    );
  }
  if (text !== before && text.includes("bigintToLong(")) {
    text = text.replace(
      "\nif (_m0.util.Long !== Long) {",
      `
function bigintToLong(value: bigint): number | Long {
  if (value >= -9007199254740991n && value <= 9007199254740991n) {
    return Number(value);
  }
  return new Long(Number(BigInt.asIntN(32, value)), Number(BigInt.asIntN(32, value >> 32n)));
}

if (_m0.util.Long !== Long) {`,
    );
  }
  if (
    text.includes(".toString())") &&
    /\.(int64|uint64|sfixed64)\(/.test(text) &&
    /int64\([^)]*\.toString\(\)\)/.test(text)
  )
    throw new Error("an int64 write still goes through a string");
  if (text.includes("BigInt(long.toString())")) throw new Error("longToBigint was not replaced");
  return text;
}

/**
 * ts-proto's createBase allocates a fresh `new Uint8Array(0)` for every bytes field of every
 * decoded message, and typed-array allocation dominated decoding (a BlockID decoded 4× slower than
 * with protobufjs reflection). Share one empty array per file instead: it has no elements, so
 * sharing it cannot leak data between messages.
 */
function sharedEmptyBytes(text) {
  if (!text.includes("new Uint8Array(0)")) return text;
  const lastImport = text.lastIndexOf("\nimport ");
  const afterImports = text.indexOf("\n", text.indexOf(";", lastImport)) + 1;
  const body = text.slice(afterImports).replaceAll("new Uint8Array(0)", "EMPTY_BYTES");
  return `${text.slice(0, afterImports)}\nconst EMPTY_BYTES = new Uint8Array(0);\n${body}`;
}

const seen = new Set();
for (const file of walk(outDir)) {
  let text = readFileSync(file, "utf8");
  const source = /^\/\/ source: (.+\.proto)$/m.exec(text)?.[1];
  if (!source) throw new Error(`${file}: no "// source:" header`);
  // Well-known types come from buf, not our proto directory, and have no non-nullable fields.
  const protoText = source.startsWith("google/") ? "" : readFileSync(join(protoDir, source), "utf8");
  const pkg = /^package\s+([\w.]+);/m.exec(protoText)?.[1];
  for (const { message, field, entry } of byPackage.get(pkg) ?? []) {
    if (!new RegExp(`^message ${message} \\{`, "m").test(protoText)) continue;
    seen.add(entry);
    const iface = block(text, `export interface ${message} {\n`, "\n}\n", entry);
    const typeMatch = new RegExp(`\\n  ${field}: (\\w+) \\| undefined;`).exec(text.slice(...iface));
    if (!typeMatch) throw new Error(`${entry}: field ${field} not found in interface ${message}`);
    const type = typeMatch[1];
    text = replaceOnce(text, iface, `  ${field}: ${type} | undefined;`, `  ${field}: ${type};`, entry);

    // createBase keeps a placeholder that decode() replaces before returning (below), so a
    // decode allocates the empty message only when the field was really absent.
    const base = block(text, `function createBase${message}(): ${message} {\n`, "\n}\n", entry);
    text = replaceOnce(text, base, `${field}: undefined`, `${field}: undefined as unknown as ${type}`, entry);

    const codec = block(text, `export const ${message} = {\n`, "\n};\n", entry);
    const encodeRe = new RegExp(
      `    if \\(message\\.${field} !== undefined\\) \\{\\n      (${type}\\.encode\\(message\\.${field}, writer\\.uint32\\(\\d+\\)\\.fork\\(\\)\\)\\.ldelim\\(\\);)\\n    \\}\\n`,
    );
    const encodeMatch = encodeRe.exec(text.slice(...codec));
    if (!encodeMatch) throw new Error(`${entry}: encode of ${field} not in the expected shape`);
    text = replaceOnce(text, codec, encodeMatch[0], `    ${encodeMatch[1]}\n`, entry);

    const decode = block(text, `export const ${message} = {\n`, "\n};\n", entry);
    const decodeEnd = "\n    return message;\n  },\n";
    const fill = `\n    if (message.${field} === undefined) {\n      message.${field} = ${type}.decode(new Uint8Array(0));\n    }`;
    text = replaceOnce(text, decode, decodeEnd, `${fill}${decodeEnd}`, entry);
  }
  text = omitEmptyPacked(text);
  text = fastLongs(text);
  text = sharedEmptyBytes(text);
  writeFileSync(file, text);
}

const missing = wanted.filter((entry) => !seen.has(entry));
if (missing.length > 0) {
  throw new Error(
    `non-nullable fields not found in ${relative(process.cwd(), outDir)}: ${missing.join(", ")}`,
  );
}
