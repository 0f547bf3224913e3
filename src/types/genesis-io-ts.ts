// io-ts helpers shared by the readers of genesis.json and the key files: a way to declare a
// codec whose name is the expectation shown to users, and a reporter that turns io-ts errors
// into "<JSON path>: expected <what>, got <value>" lines. (Lives beside genesis because this
// module owns only genesis*/key-file* files in src/types; it has no genesis-specific code.)
import * as t from "io-ts";
import { upperHex } from "../bytes.js";

/** One thing wrong with a decoded value. */
export interface DecodeProblem {
  /** JSON path from the document root, e.g. `validators[0].pub_key.value`; "" is the root. */
  path: string;
  /** What was expected, in words. */
  expected: string;
  /** The offending value (undefined when the field is missing). */
  actual: unknown;
  /** Extra detail from the validator, e.g. the reason a duration did not parse. */
  detail?: string;
}

/**
 * A codec named by its expectation ("a decimal integer string like \"10\""). `check` returns the
 * decoded value, or `{ problem }` with an optional detail; it never throws.
 */
export function expecting<A, O = A>(
  expectation: string,
  check: (input: unknown) => A | Problem,
  encode: (value: A) => O = (value) => value as unknown as O,
): t.Type<A, O, unknown> {
  return new t.Type<A, O, unknown>(
    expectation,
    (input): input is A => !(check(input) instanceof Problem),
    (input, context) => {
      const result = check(input);
      return result instanceof Problem ? t.failure(input, context, result.detail) : t.success(result);
    },
    encode,
  );
}

/** A failed check; `detail` says why when the expectation alone does not. */
export class Problem {
  constructor(readonly detail?: string) {}
}

/** The path of an io-ts context as a JSON path (`a.b[0].c`). */
export function jsonPathOf(context: t.Context): string {
  let path = "";
  for (let i = 1; i < context.length; i++) {
    const entry = context[i] as t.ContextEntry;
    // Members of an intersection or union are keyed by index; they are not part of the path.
    const parentTag = (context[i - 1]?.type as { _tag?: string } | undefined)?._tag;
    if (entry.key === "" || parentTag === "IntersectionType" || parentTag === "UnionType") continue;
    if (/^\d+$/.test(entry.key)) {
      path += `[${entry.key}]`;
    } else {
      path += path === "" ? entry.key : `.${entry.key}`;
    }
  }
  return path;
}

/** Converts io-ts errors into problems, deepest first, one per path. */
export function problemsOf(errors: t.Errors): DecodeProblem[] {
  const seen = new Set<string>();
  const problems: DecodeProblem[] = [];
  for (const error of errors) {
    const last = error.context[error.context.length - 1];
    const path = jsonPathOf(error.context);
    if (seen.has(path)) continue;
    seen.add(path);
    problems.push({
      path,
      expected: last?.type.name ?? "a valid value",
      actual: error.value,
      ...(error.message ? { detail: error.message } : {}),
    });
  }
  return problems;
}

/** A short, safe rendering of a bad value for an error message. */
export function describeActual(value: unknown): string {
  if (value === undefined) return "nothing (the field is missing)";
  let text: string;
  try {
    text = typeof value === "bigint" ? value.toString() : (JSON.stringify(value) ?? String(value));
  } catch {
    text = String(value);
  }
  return text.length > 80 ? `${text.slice(0, 77)}...` : text;
}

/** "<file>: <path>: expected <what>, got <value> (<detail>)". */
export function renderProblem(file: string, problem: DecodeProblem): string {
  const where = problem.path === "" ? file : `${file}: ${problem.path}`;
  const detail = problem.detail ? ` (${problem.detail})` : "";
  return `${where}: expected ${problem.expected}, got ${describeActual(problem.actual)}${detail}`;
}

/** Is this a plain JSON object (not an array, not null)? */
export function isJsonObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

const INT64_MIN = -(1n << 63n);
const INT64_MAX = (1n << 63n) - 1n;

/**
 * A protobuf int64 written as a JSON string of decimal digits (Tendermint's JSON requires the
 * string form), within [min, max]; decodes to bigint.
 */
export function int64String(
  example: string,
  min: bigint = INT64_MIN,
  max: bigint = INT64_MAX,
): t.Type<bigint, string> {
  const range =
    min === INT64_MIN && max === INT64_MAX ? "" : max === INT64_MAX ? ` ≥ ${min}` : ` in ${min}…${max}`;
  return expecting<bigint, string>(
    `a decimal integer string${range} like ${JSON.stringify(example)}`,
    (input) => {
      if (typeof input !== "string") {
        return new Problem(typeof input === "number" ? "64-bit integers are written as strings" : undefined);
      }
      if (!/^-?\d{1,20}$/.test(input)) return new Problem();
      const value = BigInt(input);
      if (value < min || value > max) return new Problem("out of range");
      return value;
    },
    (value) => value.toString(),
  );
}

/** A JSON number that is an integer in [min, max] (protobuf int32 and similar). */
export function intNumber(min: number, max: number): t.Type<number> {
  return expecting<number>(`an integer number in ${min}…${max}`, (input) =>
    typeof input === "number" && Number.isInteger(input) && input >= min && input <= max
      ? input
      : new Problem(),
  );
}

/** Hex of any even length (either case; "" is empty bytes), or of exactly `bytes` bytes. */
export function hexBytes(bytes?: number): t.Type<Uint8Array, string> {
  const what = bytes === undefined ? "a hex string" : `a hex string of ${bytes} bytes (${bytes * 2} digits)`;
  return expecting<Uint8Array, string>(
    what,
    (input) => {
      if (typeof input !== "string" || !/^(?:[0-9a-fA-F]{2})*$/.test(input)) return new Problem();
      if (bytes !== undefined && input.length !== bytes * 2) return new Problem(`${input.length / 2} bytes`);
      return new Uint8Array(Buffer.from(input, "hex"));
    },
    (value) => upperHex(value),
  );
}

/** Standard padded base64 of exactly `bytes` bytes. */
export function base64Bytes(bytes: number): t.Type<Uint8Array, string> {
  return expecting<Uint8Array, string>(
    `base64 of ${bytes} bytes`,
    (input) => {
      if (
        typeof input !== "string" ||
        !/^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/.test(input)
      ) {
        return new Problem();
      }
      const decoded = Buffer.from(input, "base64");
      if (decoded.length !== bytes) return new Problem(`${decoded.length} bytes`);
      return new Uint8Array(decoded);
    },
    (value) => Buffer.from(value).toString("base64"),
  );
}

/** Any JSON string, optionally bounded in length. */
export function boundedString(maxLength: number): t.Type<string> {
  return expecting<string>(`a string of at most ${maxLength} characters`, (input) =>
    typeof input === "string" && input.length <= maxLength ? input : new Problem(),
  );
}
