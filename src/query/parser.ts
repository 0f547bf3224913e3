// A hand-written parser for Tendermint's event query grammar (reference §3.1). It accepts
// exactly the texts the PEG accepts: no leading or trailing spaces, only the space character
// as whitespace, a single AND between conditions, upper-case keywords. Like the PEG it never
// backtracks into a tag, so `aCONTAINS 'x'` is a tag "aCONTAINS" followed by garbage.

import type { Condition, Operand, Operator, Query } from "./ast.js";
import { MAX_QUERY_LENGTH } from "./ast.js";
import { QueryError } from "./errors.js";
import { parseDateNanos, parseRfc3339Nanos } from "./instant.js";

export interface ParseQueryOptions {
  /**
   * Longest accepted text in UTF-8 bytes (Go measures strings in bytes). Default 512, the
   * limit of subscribe and tx_search; block_search passes Infinity, as 0.34.24 has no limit.
   */
  maxLength?: number;
}

/** Characters that end a tag (PEG: `[ \t\n\r\\()"'=><]`). */
function endsTag(code: number): boolean {
  switch (code) {
    case 0x20: // space
    case 0x09: // \t
    case 0x0a: // \n
    case 0x0d: // \r
    case 0x5c: // \
    case 0x28: // (
    case 0x29: // )
    case 0x22: // "
    case 0x27: // '
    case 0x3d: // =
    case 0x3e: // >
    case 0x3c: // <
      return true;
    default:
      return false;
  }
}

function isDigit(code: number): boolean {
  return code >= 0x30 && code <= 0x39;
}

// Operators in the PEG's order of alternatives: two-character ones before their prefixes.
const OPERATORS: readonly Operator[] = ["<=", ">=", "<", ">", "=", "CONTAINS", "EXISTS"];
const OPERATOR_LIST = "an operator (=, <, <=, >, >=, CONTAINS, EXISTS)";

// TIME and DATE bodies as the PEG spells them: year starts with 1 or 2, month with 0 or 1,
// day with 0–3; TIME has no fraction and ends in Z or ±hh:mm.
const TIME_BODY = /[12]\d{3}-[01]\d-[0-3]\dT\d{2}:\d{2}:\d{2}(?:[-+]\d{2}:\d{2}|Z)/y;
const DATE_BODY = /[12]\d{3}-[01]\d-[0-3]\d/y;

function longerThan(text: string, maxBytes: number): boolean {
  if (text.length > maxBytes) return true;
  // A UTF-16 unit is at most 3 UTF-8 bytes, so short texts need no count.
  return text.length * 3 > maxBytes && Buffer.byteLength(text, "utf8") > maxBytes;
}

class Parser {
  private pos = 0;

  constructor(private readonly text: string) {}

  parse(): Query {
    const conditions: Condition[] = [this.condition()];
    while (this.pos < this.text.length) {
      // Between conditions: one or more spaces, AND, one or more spaces.
      if (this.text.charCodeAt(this.pos) !== 0x20) this.fail('" AND " or the end of the query');
      this.skipSpaces();
      if (!this.text.startsWith("AND", this.pos)) this.fail("AND");
      this.pos += 3;
      if (this.text.charCodeAt(this.pos) !== 0x20) this.fail("a space after AND");
      this.skipSpaces();
      conditions.push(this.condition());
    }
    return { conditions };
  }

  private condition(): Condition {
    const start = this.pos;
    while (this.pos < this.text.length && !endsTag(this.text.charCodeAt(this.pos))) this.pos++;
    if (this.pos === start) this.fail("a tag (an event key such as tm.event)");
    const key = this.text.slice(start, this.pos);
    this.skipSpaces();
    const op = OPERATORS.find((candidate) => this.text.startsWith(candidate, this.pos));
    if (op === undefined) this.fail(OPERATOR_LIST);
    this.pos += op.length;
    if (op === "EXISTS") return { key, op };
    this.skipSpaces();
    return { key, op, operand: this.operand(op) };
  }

  private operand(op: Operator): Operand {
    const code = this.text.charCodeAt(this.pos);
    if (op === "CONTAINS") {
      if (code !== 0x27) this.fail("a quoted string after CONTAINS");
      return this.string();
    }
    if (isDigit(code)) return this.number();
    if (this.text.startsWith("TIME ", this.pos)) return this.instant("time", TIME_BODY, 5);
    if (this.text.startsWith("DATE ", this.pos)) return this.instant("date", DATE_BODY, 5);
    if (op === "=") {
      if (code !== 0x27) this.fail("a number, TIME, DATE or quoted string");
      return this.string();
    }
    return this.fail(`a number, TIME or DATE after ${op}`);
  }

  private number(): Operand {
    const start = this.pos;
    if (this.text.charCodeAt(this.pos) === 0x30) {
      // PEG: '0' is a whole number on its own; "0.5" and "007" are not numbers.
      this.pos++;
    } else {
      while (isDigit(this.text.charCodeAt(this.pos))) this.pos++;
      if (this.text.charCodeAt(this.pos) === 0x2e) {
        this.pos++;
        while (isDigit(this.text.charCodeAt(this.pos))) this.pos++;
      }
    }
    return { kind: "number", value: this.text.slice(start, this.pos) };
  }

  private instant(kind: "time" | "date", body: RegExp, keywordLength: number): Operand {
    const start = this.pos + keywordLength;
    body.lastIndex = start;
    const m = body.exec(this.text);
    if (m === null) {
      this.pos = start;
      return this.fail(
        kind === "time" ? "a time YYYY-MM-DDThh:mm:ss followed by Z or ±hh:mm" : "a date YYYY-MM-DD",
      );
    }
    const value = m[0];
    const valid = kind === "time" ? parseRfc3339Nanos(value) : parseDateNanos(value);
    if (valid === undefined) {
      throw new QueryError(
        "QUERY_INVALID_OPERAND",
        `invalid ${kind === "time" ? "TIME" : "DATE"} ${value} at position ${start}: not a real calendar ${kind}`,
        { position: start },
      );
    }
    this.pos = start + value.length;
    return { kind, value };
  }

  private string(): Operand {
    const start = this.pos + 1;
    let i = start;
    for (; i < this.text.length; i++) {
      const code = this.text.charCodeAt(i);
      if (code === 0x27) break;
      if (code === 0x22) {
        this.pos = i;
        this.fail("a closing single quote (strings cannot hold a double quote)");
      }
    }
    if (i >= this.text.length) {
      this.pos = i;
      this.fail("a closing single quote");
    }
    this.pos = i + 1;
    return { kind: "string", value: this.text.slice(start, i) };
  }

  private skipSpaces(): void {
    while (this.text.charCodeAt(this.pos) === 0x20) this.pos++;
  }

  private fail(expected: string): never {
    const found =
      this.pos >= this.text.length
        ? "the end of the query"
        : JSON.stringify(this.text.slice(this.pos, this.pos + 12));
    throw new QueryError("QUERY_SYNTAX", `at position ${this.pos}: expected ${expected}, found ${found}`, {
      position: this.pos,
      expected,
    });
  }
}

/**
 * Parses query text into its conditions. Throws QueryError: QUERY_TOO_LONG beyond the limit
 * ("maximum query length exceeded", Tendermint's words), QUERY_SYNTAX with the position and
 * what was expected, QUERY_INVALID_OPERAND for an impossible DATE or TIME.
 */
export function parseQuery(text: string, options: ParseQueryOptions = {}): Query {
  const maxLength = options.maxLength ?? MAX_QUERY_LENGTH;
  if (longerThan(text, maxLength)) {
    throw new QueryError("QUERY_TOO_LONG", "maximum query length exceeded");
  }
  return new Parser(text).parse();
}
