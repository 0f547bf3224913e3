// Reading a key file: bounded size, JSON parse, io-ts decode, and errors that name the file,
// the JSON path and the expectation, never echoing private key material.
import { readFileSync, statSync } from "node:fs";
import type * as t from "io-ts";
import { problemsOf, renderProblem } from "./genesis-io-ts.js";
import { KeyFileError } from "./key-file-errors.js";

/** Key files are a few hundred bytes; anything this large is not one. */
export const MAX_KEY_FILE_BYTES = 64 * 1024;

export function readKeyFileJson(file: string): unknown {
  let text: string;
  try {
    const size = statSync(file).size;
    if (size > MAX_KEY_FILE_BYTES) {
      throw new KeyFileError(
        "KEY_FILE_IO",
        file,
        "",
        `${file}: ${size} bytes is too large for a key file (at most ${MAX_KEY_FILE_BYTES})`,
      );
    }
    text = readFileSync(file, "utf8");
  } catch (error) {
    if (error instanceof KeyFileError) throw error;
    const reason =
      (error as NodeJS.ErrnoException).code === "ENOENT" ? "file not found" : (error as Error).message;
    throw new KeyFileError("KEY_FILE_IO", file, "", `${file}: cannot read: ${reason}`, { cause: error });
  }
  try {
    return JSON.parse(text);
  } catch (error) {
    throw new KeyFileError(
      "KEY_FILE_NOT_JSON",
      file,
      "",
      `${file}: expected a JSON object, got text that is not JSON (${(error as Error).message})`,
    );
  }
}

/** Decodes with `codec`, or throws a KeyFileError for the first problem. */
export function decodeKeyFile<A, O>(file: string, codec: t.Type<A, O, unknown>, json: unknown): A {
  const result = codec.decode(json);
  if (result._tag === "Right") return result.right;
  const [first] = problemsOf(result.left);
  if (first === undefined) throw invalidKeyFile(file, "", "malformed");
  // Never echo key material: a private key's value is shown by its length only.
  const safe = /priv_key/.test(first.path) ? { ...first, actual: redact(first.actual) } : first;
  throw new KeyFileError("KEY_FILE_INVALID", file, first.path, renderProblem(file, safe));
}

/** The 64-byte length is checked by the codec, so a bad pair can only mean mismatched halves. */
export const HALVES_DISAGREE =
  "expected seed ‖ public key (the last 32 bytes the public key of the first 32), got halves that do not match";

export function invalidKeyFile(file: string, path: string, message: string): KeyFileError {
  return new KeyFileError(
    "KEY_FILE_INVALID",
    file,
    path,
    `${file}: ${path === "" ? "" : `${path}: `}${message}`,
  );
}

function redact(value: unknown): unknown {
  if (typeof value === "string") return `<redacted ${value.length} characters>`;
  if (typeof value === "object" && value !== null) return "<redacted object>";
  return value;
}
