// Boot step 3: the consensus log. A torn tail is cut and reported; corruption elsewhere stops the
// start. The inputs of the unfinished height (after the last end-of-height marker) are read for
// the restart fold. The flush policy while the node runs is the log's own (Wal.flushEvery).
import type { ConsensusInput } from "../../src/consensus/input.js";
import { consensusRecordCheck } from "../../src/consensus/log-record-schema.js";
import type { Logger } from "../../src/logger/index.js";
import { Wal } from "../../src/wal/wal.js";
import { NodeError } from "../node-errors.js";

export async function openConsensusLog(
  dir: string,
  height: bigint,
  log: Logger,
): Promise<{ wal: Wal<ConsensusInput>; earlier: ConsensusInput[] }> {
  const wal = await Wal.open(dir, { checkRecord: consensusRecordCheck });
  try {
    if (wal.repair) log.warn(wal.repair.message);
    return { wal, earlier: await unfinishedHeightInputs(wal, height, log) };
  } catch (error) {
    await wal.close();
    throw error;
  }
}

/**
 * The inputs logged for the height after `height` (the last committed one). When the log's last
 * end-of-height marker is older (a crash between saving the state and writing the marker, or a
 * log moved aside), the marker is written now and nothing is replayed.
 */
async function unfinishedHeightInputs(
  wal: Wal<ConsensusInput>,
  height: bigint,
  log: Logger,
): Promise<ConsensusInput[]> {
  const marker = wal.lastEndHeight;
  if (marker !== undefined && marker > height) {
    throw new NodeError(
      "NODE_WAL_AHEAD_OF_STORE",
      `consensus log ${wal.dir} ends height ${marker} but the stores hold height ${height}: data/ was restored or damaged without its log; restore both together`,
    );
  }
  if ((marker === undefined && height > 0n) || (marker !== undefined && marker < height)) {
    log.info("writing the missing end-of-height marker", { height, previous: marker ?? "none" });
    await wal.endHeight(height);
    return [];
  }
  const inputs = await wal.readAfterLastEndHeight();
  if (inputs.length > 0)
    log.info("read the unfinished height from the consensus log", {
      height: height + 1n,
      inputs: inputs.length,
    });
  return inputs;
}
