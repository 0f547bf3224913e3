// What the vote keeper reports when a vote pushes a tally over a line. The step logic reacts to
// these (and reads the sticky flags they leave in the tallies); the keeper itself decides nothing.
import type { BlockID } from "../../wire/generated/tendermint/types/types.js";

export type Threshold =
  /** More than 2/3 of the power prevoted in `round`, for anything (paper L34). */
  | { readonly kind: "PolkaAny"; readonly round: number }
  /** More than 2/3 prevoted for one block (paper L28/L36). */
  | { readonly kind: "PolkaBlock"; readonly round: number; readonly blockId: BlockID }
  /** More than 2/3 prevoted nil (paper L44). */
  | { readonly kind: "PolkaNil"; readonly round: number }
  /** More than 2/3 precommitted in `round`, for anything (paper L47). */
  | { readonly kind: "PrecommitAny"; readonly round: number }
  /** More than 2/3 precommitted for one block: the decision (paper L49). */
  | { readonly kind: "PrecommitBlock"; readonly round: number; readonly blockId: BlockID }
  /** More than 2/3 precommitted nil. */
  | { readonly kind: "PrecommitNil"; readonly round: number }
  /** Every validator precommitted in `round` (skip_timeout_commit). */
  | { readonly kind: "PrecommitAll"; readonly round: number }
  /** More than 2/3 of the power voted (one kind) in a round later than the current one (L55). */
  | { readonly kind: "SkipRound"; readonly round: number };

export type ThresholdKind = Threshold["kind"];
