// The raw text of genesis.json's top-level "app_state" member. Tendermint hands the application
// the file's own bytes of app_state at InitChain (json.RawMessage), not a re-serialisation, so
// numbers beyond 2^53 and the file's formatting reach the app unchanged.

/** [start, end) of the value of top-level member `key` in JSON `text`, or undefined. */
export function topLevelMemberSpan(text: string, key: string): [number, number] | undefined {
  let i = skipSpace(text, 0);
  if (text[i] !== "{") return undefined;
  i++;
  let found: [number, number] | undefined;
  for (;;) {
    i = skipSpace(text, i);
    if (text[i] === "}") return found;
    const keyEnd = skipString(text, i);
    if (keyEnd < 0) return undefined;
    const name = JSON.parse(text.slice(i, keyEnd)) as string;
    i = skipSpace(text, keyEnd);
    if (text[i] !== ":") return undefined;
    const start = skipSpace(text, i + 1);
    const end = skipValue(text, start);
    if (end < 0) return undefined;
    // Like Go's decoder, a repeated key's last occurrence wins.
    if (name === key) found = [start, end];
    i = skipSpace(text, end);
    if (text[i] === ",") i++;
    else if (text[i] === "}") return found;
    else return undefined;
  }
}

function skipSpace(text: string, from: number): number {
  let i = from;
  while (i < text.length && (text[i] === " " || text[i] === "\n" || text[i] === "\r" || text[i] === "\t"))
    i++;
  return i;
}

/** End (exclusive) of the string starting at `from`, or -1. */
function skipString(text: string, from: number): number {
  if (text[from] !== '"') return -1;
  for (let i = from + 1; i < text.length; i++) {
    if (text[i] === "\\") i++;
    else if (text[i] === '"') return i + 1;
  }
  return -1;
}

/** End (exclusive) of the JSON value starting at `from`, or -1. Assumes text already parsed. */
function skipValue(text: string, from: number): number {
  const first = text[from];
  if (first === '"') return skipString(text, from);
  if (first === "{" || first === "[") {
    let depth = 0;
    for (let i = from; i < text.length; i++) {
      const c = text[i];
      if (c === '"') {
        i = skipString(text, i) - 1;
        if (i < 0) return -1;
      } else if (c === "{" || c === "[") depth++;
      else if (c === "}" || c === "]") {
        depth--;
        if (depth === 0) return i + 1;
      }
    }
    return -1;
  }
  let i = from;
  while (i < text.length && !/[\s,}\]]/.test(text[i] as string)) i++;
  return i > from ? i : -1;
}
