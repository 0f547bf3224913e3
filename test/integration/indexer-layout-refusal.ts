// The refusal an old tx index layout gets at open, as the tests of each layout change expect it:
// STORE_OPEN_FAILED naming the database's directory and both ways to rebuild it.
import { StoreError } from "../../src/store/errors.js";

export function isLayoutRefusal(location: string): (error: unknown) => boolean {
  return (error) =>
    error instanceof StoreError &&
    error.code === "STORE_OPEN_FAILED" &&
    error.message.includes(location) &&
    error.message.includes("remove that tx_index.db") &&
    error.message.includes("reindex-event");
}
