// JSON text as Go writes it: a small tree of plain values serialised in insertion order, with
// Go's HTML-safe escaping (<, >, & and U+2028/U+2029 as \u escapes) so the tendermint form is
// byte-identical to a v0.34 node. Pre-encoded parts (app_state, cached JSON) are spliced as
// JsonRaw. Keys whose value is undefined are left out, which is how `omitempty` is expressed.

/** Already-valid JSON text, written as it is. */
export class JsonRaw {
  constructor(readonly text: string) {}
}

export type JsonValue =
  | string
  | number
  | boolean
  | null
  | undefined
  | JsonRaw
  | readonly JsonValue[]
  | { readonly [key: string]: JsonValue };

const GO_ESCAPED = /[<>&\u2028\u2029]/;
const GO_ESCAPED_ALL = /[<>&\u2028\u2029]/g;
/** Anything JSON or Go would escape (quotes, backslash, controls, surrogates, HTML characters). */
const NEEDS_ESCAPING = /["\\\u0000-\u001f<>&\u2028\u2029\ud800-\udfff]/;

function goEscape(ch: string): string {
  return `\\u${ch.charCodeAt(0).toString(16).padStart(4, "0")}`;
}

/** A JSON string literal with Go's escaping. */
export function jsonString(text: string): string {
  // Most strings (hex, base64, decimal, names) need no escaping: skip JSON.stringify for them.
  if (!needsEscaping(text)) return `"${text}"`;
  const quoted = JSON.stringify(text);
  return GO_ESCAPED.test(quoted) ? quoted.replace(GO_ESCAPED_ALL, goEscape) : quoted;
}

function needsEscaping(text: string): boolean {
  if (text.length > 64) return NEEDS_ESCAPING.test(text);
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c < 0x20 || c === 0x22 || c === 0x5c || c === 0x3c || c === 0x3e || c === 0x26 || c >= 0x2028) {
      if (c >= 0x2028 && c !== 0x2028 && c !== 0x2029 && (c < 0xd800 || c > 0xdfff)) continue;
      return true;
    }
  }
  return false;
}

/** Serialises a tree compactly. Numbers must be finite (callers write int64 as strings). */
export function jsonText(value: JsonValue): string {
  return write(value);
}

function write(value: JsonValue): string {
  if (value === null || value === undefined) return "null";
  switch (typeof value) {
    case "string":
      return jsonString(value);
    case "number":
      if (!Number.isFinite(value)) throw new TypeError(`JSON cannot hold the number ${value}`);
      return String(value);
    case "boolean":
      return value ? "true" : "false";
  }
  if (value instanceof JsonRaw) return value.text;
  if (Array.isArray(value)) {
    if (value.length === 0) return "[]";
    let out = "[";
    for (let i = 0; i < value.length; i++) {
      if (i > 0) out += ",";
      out += write(value[i]);
    }
    return `${out}]`;
  }
  let out = "{";
  let first = true;
  const record = value as { readonly [key: string]: JsonValue };
  for (const key in record) {
    const item = record[key];
    if (item === undefined) continue;
    if (first) first = false;
    else out += ",";
    out += `${jsonString(key)}:${write(item)}`;
  }
  return `${out}}`;
}

/**
 * Compacts JSON text (whitespace outside strings removed) and applies Go's escaping inside
 * strings, without parsing numbers: what Go's encoding/json does to an embedded RawMessage, so
 * app_state keeps big numbers exactly. The text must already be valid JSON.
 */
export function compactJson(text: string): string {
  let out = "";
  let start = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const ch = text.charCodeAt(i);
    if (inString) {
      if (ch === 0x5c) i++;
      else if (ch === 0x22) inString = false;
      else if (ch === 0x3c || ch === 0x3e || ch === 0x26 || ch === 0x2028 || ch === 0x2029) {
        out += text.slice(start, i) + goEscape(text[i] as string);
        start = i + 1;
      }
      continue;
    }
    if (ch === 0x22) inString = true;
    else if (ch === 0x20 || ch === 0x0a || ch === 0x0d || ch === 0x09) {
      out += text.slice(start, i);
      start = i + 1;
    }
  }
  return out + text.slice(start);
}
