// [tx_index] psql-conn: Tendermint v0.34's URL form, postgresql://user:password@host:port/db?opts.
// Parsing names the key on every error, and what is shown of the URL never holds the password.
import { StoreError } from "../../errors.js";

export const PSQL_CONN_KEY = "[tx_index] psql-conn";

/** The URL with its password replaced, for logs and errors. */
export function redactConnUrl(conn: string): string {
  try {
    const url = new URL(conn);
    if (url.password !== "") url.password = "***";
    return url.toString();
  } catch {
    return "(not a URL)";
  }
}

/** Checks psql-conn; returns it unchanged (node-postgres takes the URL as is). */
export function checkConnUrl(conn: string): string {
  if (conn === "") {
    throw new StoreError(
      "STORE_OPEN_FAILED",
      `${PSQL_CONN_KEY} is empty: indexer = "psql" needs a URL like postgresql://user:password@127.0.0.1:5432/db`,
    );
  }
  let url: URL;
  try {
    url = new URL(conn);
  } catch {
    throw new StoreError(
      "STORE_OPEN_FAILED",
      `${PSQL_CONN_KEY} is not a URL: expected postgresql://user:password@host:port/db`,
    );
  }
  if (url.protocol !== "postgresql:" && url.protocol !== "postgres:") {
    throw new StoreError(
      "STORE_OPEN_FAILED",
      `${PSQL_CONN_KEY} ${redactConnUrl(conn)}: expected the scheme postgresql:// or postgres://, got ${url.protocol}//`,
    );
  }
  return conn;
}

/** A driver or server error as one line that never repeats the connection string. */
export function errorText(error: unknown, conn: string): string {
  const e = error as { message?: string; code?: string } | undefined;
  let text = e?.message ?? String(error);
  if (text === "" && e?.code) text = e.code;
  // AggregateError (every address of a host refused) has an empty message; its parts do not.
  const parts = (error as { errors?: unknown[] })?.errors;
  if (text === "" && Array.isArray(parts)) text = parts.map((p) => (p as Error).message).join("; ");
  const password = safePassword(conn);
  if (password !== "" && text.includes(password)) text = text.split(password).join("***");
  return text;
}

function safePassword(conn: string): string {
  try {
    return decodeURIComponent(new URL(conn).password);
  } catch {
    return "";
  }
}
