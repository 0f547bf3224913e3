// What the node does when an ABCI connection dies after start: as Tendermint v0.34 does for any
// of its four app connections, it stops. A block in execution at that moment never reaches a
// new state (executeBlock rejects before or at Commit), and the handshake at the next start
// replays whatever the app is missing, so stopping loses nothing.
import type { AbciClient, AbciLogger } from "./client/abci-client.js";
import { ABCI_HALT_EXIT_CODE, type AbciError } from "./errors.js";

/** Receives the operator-facing sentence and the exit code the process should end with. */
export type AbciHalt = (reason: { error: AbciError; message: string; exitCode: number }) => void;

/** Calls `halt` once, on the first failure of any connection, with a message naming it. */
export function haltOnAbciFailure(client: AbciClient, logger: AbciLogger, halt: AbciHalt): void {
  let halted = false;
  client.onError((error) => {
    if (halted) return;
    halted = true;
    const message =
      `ABCI ${error.connection ?? "app"} connection terminated: ${error.message}. ` +
      "Did the application crash? Restart it, then restart the node; the handshake replays what the app missed.";
    logger.error("abci connection terminated, stopping the node", {
      connection: error.connection,
      code: error.code,
      err: error.message,
    });
    halt({ error, message, exitCode: ABCI_HALT_EXIT_CODE });
  });
}
