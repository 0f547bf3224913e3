// Representative domain values shared by the RPC JSON golden tests (not a test file itself).
import type { Block } from "../../src/wire/generated/tendermint/types/block.js";
import type { BlockID, Header } from "../../src/wire/generated/tendermint/types/types.js";

export const bytes = (...values: number[]) => new Uint8Array(values);
export const utf8 = (text: string) => new TextEncoder().encode(text);
/** 2020-01-01T00:00:00.52Z */
export const TIME = { seconds: 1577836800n, nanos: 520_000_000 };
export const ZERO_TIME = { seconds: -62135596800n, nanos: 0 };
export const KEY = new Uint8Array(32).fill(1);

export const LAST_BLOCK_ID: BlockID = {
  hash: bytes(0xaa, 0xaa),
  partSetHeader: { total: 1, hash: bytes(0xbb, 0xbb) },
};
export const BLOCK_ID: BlockID = {
  hash: bytes(0xab, 0xcd),
  partSetHeader: { total: 1, hash: bytes(0xef, 0x01) },
};

export const HEADER: Header = {
  version: { block: 11n, app: 0n },
  chainId: "test-chain",
  height: 2n,
  time: TIME,
  lastBlockId: LAST_BLOCK_ID,
  lastCommitHash: bytes(1, 2),
  dataHash: bytes(3, 4),
  validatorsHash: bytes(5, 6),
  nextValidatorsHash: bytes(5, 6),
  consensusHash: bytes(7, 8),
  appHash: new Uint8Array(0),
  lastResultsHash: new Uint8Array(0),
  evidenceHash: new Uint8Array(0),
  proposerAddress: bytes(0x0a, 0x0b),
};

export const BLOCK: Block = {
  header: HEADER,
  data: { txs: [utf8("key=value")] },
  evidence: { evidence: [] },
  lastCommit: {
    height: 1n,
    round: 0,
    blockId: LAST_BLOCK_ID,
    signatures: [
      {
        blockIdFlag: 2,
        validatorAddress: bytes(0x0a, 0x0b),
        timestamp: { seconds: 1577836800n, nanos: 0 },
        signature: bytes(1, 2),
      },
      {
        blockIdFlag: 1,
        validatorAddress: new Uint8Array(0),
        timestamp: ZERO_TIME,
        signature: new Uint8Array(0),
      },
    ],
  },
};

export const DELIVER_TX = {
  code: 0,
  data: new Uint8Array(0),
  log: "ok",
  info: "",
  gasWanted: 1n,
  gasUsed: 0n,
  events: [{ type: "app", attributes: [{ key: utf8("creator"), value: utf8("Cosmoshi"), index: true }] }],
  codespace: "",
};
