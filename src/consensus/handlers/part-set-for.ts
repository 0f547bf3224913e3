// An empty part set for a header named by votes or a commit; undefined when the header cannot be a
// real part set (a zero total, too many parts, a short hash), so bad data never throws here.
import { TypesError } from "../../types/errors.js";
import { emptyPartSet, type PartSetState } from "../../types/part-set.js";
import type { PartSetHeader } from "../../wire/generated/tendermint/types/types.js";

export function partSetFor(header: PartSetHeader, maxBytes: bigint): PartSetState | undefined {
  try {
    return emptyPartSet(header, Number(maxBytes));
  } catch (error) {
    if (error instanceof TypesError) return undefined;
    throw error;
  }
}
