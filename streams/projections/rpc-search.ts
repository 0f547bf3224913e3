// From the route's SearchRequest (src/rpc/context.ts) to the indexer's (src/store/indexer).
import type { SearchRequest as RouteSearch } from "../../src/rpc/context.js";
import type { SearchRequest as IndexSearch } from "../../src/store/indexer/search-executor.js";

export type BlockSearchRequest = IndexSearch;

export function indexSearchOf(request: RouteSearch): IndexSearch {
  return {
    conditions: request.query.conditions,
    page: request.page ?? 1,
    perPage: request.perPage,
    order: request.orderBy,
  };
}
