// Stands in for the app when the handshake rebuilds the state of a block the app already
// committed: it answers with the ABCI responses saved for that block, and Commit with the app's
// reported hash, so the state is recomputed without running the block twice on the real app.
import type { RequestDeliverTx } from "../../wire/generated/tendermint/abci/types.js";
import type { ABCIResponses } from "../../wire/generated/tendermint/state/types.js";
import { AbciError } from "../errors.js";
import { NoopApplication } from "./noop.js";
import { responseBeginBlock, responseCommit, responseEndBlock } from "./responses.js";

export class ReplayResponsesApplication extends NoopApplication {
  private next = 0;

  constructor(
    private readonly saved: ABCIResponses,
    private readonly appHash: Uint8Array,
  ) {
    super();
  }

  override beginBlock() {
    return this.saved.beginBlock ?? responseBeginBlock();
  }

  override deliverTx(_req: RequestDeliverTx) {
    const r = this.saved.deliverTxs[this.next++];
    if (r === undefined) {
      throw new AbciError(
        "ABCI_HANDSHAKE_MISSING_DATA",
        `saved ABCI responses hold ${this.saved.deliverTxs.length} DeliverTx results, the block has more txs`,
      );
    }
    return r;
  }

  override endBlock() {
    return this.saved.endBlock ?? responseEndBlock();
  }

  override commit() {
    return responseCommit({ data: this.appHash });
  }
}
