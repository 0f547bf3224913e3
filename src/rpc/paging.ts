// Tendermint's argument rules for heights, pages and ranges (reference §1.2), with its exact
// error messages. Routes use them before calling the node; the node's search and validator
// queries use validatePage once they know the total.

import { handlerError } from "./errors.js";

export const DEFAULT_PER_PAGE = 30;
export const MAX_PER_PAGE = 100;
/** Most block metas one `blockchain` call returns. */
export const BLOCKCHAIN_LIMIT = 20n;

/** Missing or < 1 gives 30; above 100 gives 100. Never an error. */
export function validatePerPage(perPage: number | undefined): number {
  if (perPage === undefined || perPage < 1) return DEFAULT_PER_PAGE;
  return perPage > MAX_PER_PAGE ? MAX_PER_PAGE : perPage;
}

/** The 1-based page, checked against the number of pages of `total` results. */
export function validatePage(page: number | undefined, perPage: number, total: number): number {
  if (page === undefined) return 1;
  const pages = total === 0 ? 1 : Math.floor((total - 1) / perPage) + 1;
  if (page <= 0 || page > pages)
    throw handlerError(`page should be within [1, ${pages}] range, given ${page}`);
  return page;
}

/** How many results to skip before a page. */
export function pageOffset(page: number, perPage: number): number {
  return (page - 1) * perPage;
}

/**
 * A requested height checked against [base, latest] (Tendermint's getHeight); missing means
 * latest. For validators and consensus_params, `latest` is the latest uncommitted height.
 */
export function resolveHeight(requested: bigint | undefined, latest: bigint, base: bigint): bigint {
  if (requested === undefined) return latest;
  if (requested <= 0n) throw handlerError(`height must be greater than 0, but got ${requested}`);
  if (requested > latest) {
    throw handlerError(
      `height ${requested} must be less than or equal to the current blockchain height ${latest}`,
    );
  }
  if (requested < base) throw handlerError(`height ${requested} is not available, lowest height is ${base}`);
  return requested;
}

/** The `blockchain` range (Tendermint's filterMinMax): at most 20 heights, newest end kept. */
export function filterMinMax(
  base: bigint,
  height: bigint,
  minHeight: bigint,
  maxHeight: bigint,
  limit: bigint = BLOCKCHAIN_LIMIT,
): { minHeight: bigint; maxHeight: bigint } {
  if (minHeight < 0n || maxHeight < 0n) throw handlerError("heights must be non-negative");
  let min = minHeight === 0n ? 1n : minHeight;
  let max = maxHeight === 0n ? height : maxHeight;
  if (height < max) max = height;
  if (base > min) min = base;
  if (max - limit + 1n > min) min = max - limit + 1n;
  if (min > max) throw handlerError(`min height ${min} can't be greater than max height ${max}`);
  return { minHeight: min, maxHeight: max };
}
