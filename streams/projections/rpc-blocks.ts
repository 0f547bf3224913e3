// The block routes over the block and state stores: blockchain, block, block_by_hash,
// block_results, commit, validators, consensus_params and block_search. Heights arrive checked
// by the routes (src/rpc/routes.ts); what the stores lack is reported with v0.34's wording.

import { handlerError } from "../../src/rpc/errors.js";
import type {
  BlockchainResult,
  BlockResult,
  BlockResultsResult,
  BlockSearchResultView,
  CommitResult,
  ConsensusParamsResult,
  ValidatorsResult,
} from "../../src/rpc/json/index.js";
import { validatePage } from "../../src/rpc/paging.js";
import type { Block } from "../../src/wire/generated/tendermint/types/block.js";
import type { NodeHandle } from "../node-handle.js";
import type { BlockSearchRequest } from "./rpc-search.js";

const hex = (b: Uint8Array) => Buffer.from(b).toString("hex").toUpperCase();

export async function blockchainOf(node: NodeHandle, min: bigint, max: bigint): Promise<BlockchainResult> {
  const store = node.stores.blockStore;
  const metas = max >= min ? await store.loadBlockMetas(min, max) : [];
  // Newest first, as v0.34 returns them.
  metas.sort((a, b) => (a.header.height < b.header.height ? 1 : a.header.height > b.header.height ? -1 : 0));
  return { lastHeight: store.height(), blockMetas: metas };
}

/** Keys of validators named by a block's evidence, for the seed form's evidence entries. */
async function evidenceKeysOf(node: NodeHandle, block: Block): Promise<Map<string, Uint8Array> | undefined> {
  const items = block.evidence?.evidence ?? [];
  if (items.length === 0) return undefined;
  const keys = new Map<string, Uint8Array>();
  for (const item of items) {
    if (item.sum?.$case !== "duplicateVoteEvidence") continue;
    const height = item.sum.duplicateVoteEvidence.voteA?.height;
    if (height === undefined) continue;
    try {
      const set = await node.stores.stateStore.loadValidators(height);
      for (const v of set.validators) {
        if (v.pubKey.sum?.$case === "ed25519") keys.set(hex(v.address), v.pubKey.sum.ed25519);
      }
    } catch {
      // validators of a pruned height: the entry then shows no key
    }
  }
  return keys;
}

export async function blockAt(node: NodeHandle, height: bigint): Promise<BlockResult> {
  const store = node.stores.blockStore;
  const [meta, block] = await Promise.all([store.loadBlockMeta(height), store.loadBlock(height)]);
  if (meta === undefined || block === undefined) return { blockId: undefined, block: undefined };
  const evidenceKeys = await evidenceKeysOf(node, block);
  return evidenceKeys ? { blockId: meta.blockId, block, evidenceKeys } : { blockId: meta.blockId, block };
}

export async function blockByHash(node: NodeHandle, hash: Uint8Array): Promise<BlockResult> {
  const height = node.stores.blockStore.heightOfHash(hash);
  // An unknown hash answers an empty block_id and a null block, as v0.34 does.
  if (height === undefined) return { blockId: undefined, block: undefined };
  return blockAt(node, height);
}

export async function blockResultsAt(node: NodeHandle, height: bigint): Promise<BlockResultsResult> {
  const responses = await node.stores.stateStore.loadABCIResponses(height);
  if (responses === undefined) throw handlerError(`could not find results for height #${height}`);
  return {
    height,
    txsResults: responses.deliverTxs,
    beginBlockEvents: responses.beginBlock?.events ?? [],
    endBlockEvents: responses.endBlock?.events ?? [],
    validatorUpdates: responses.endBlock?.validatorUpdates ?? [],
    consensusParamUpdates: responses.endBlock?.consensusParamUpdates,
  };
}

/**
 * The signed header of a height: the latest height has only the commit this node saw
 * (canonical: false); an earlier one has the commit carried by the next block (canonical: true).
 */
export async function commitAt(node: NodeHandle, height: bigint): Promise<CommitResult | null> {
  const store = node.stores.blockStore;
  const meta = await store.loadBlockMeta(height);
  if (meta === undefined) return null;
  if (height === store.height()) {
    const seen = await store.loadSeenCommit(height);
    if (seen === undefined) return null;
    return { signedHeader: { header: meta.header, commit: seen }, canonical: false };
  }
  const commit = await store.loadBlockCommit(height);
  if (commit === undefined) return null;
  return { signedHeader: { header: meta.header, commit }, canonical: true };
}

export async function validatorsAt(
  node: NodeHandle,
  height: bigint,
  page: number | undefined,
  perPage: number,
): Promise<ValidatorsResult> {
  const set = await node.stores.stateStore.loadValidators(height);
  const total = set.validators.length;
  const p = validatePage(page, perPage, total);
  const skip = (p - 1) * perPage;
  const validators = set.validators.slice(skip, skip + perPage);
  return { blockHeight: height, validators, count: validators.length, total };
}

export async function consensusParamsAt(node: NodeHandle, height: bigint): Promise<ConsensusParamsResult> {
  return { blockHeight: height, consensusParams: await node.stores.stateStore.loadConsensusParams(height) };
}

export async function blockSearch(
  node: NodeHandle,
  request: BlockSearchRequest,
): Promise<BlockSearchResultView> {
  const found = await node.stores.blockIndexer.search(request);
  const blocks: BlockResult[] = [];
  for (const height of found.heights) {
    const result = await blockAt(node, height);
    if (result.block !== undefined) blocks.push(result);
  }
  return { blocks, totalCount: found.total };
}
