// broadcast_evidence: the typed JSON envelope of v0.34 ({"type":"tendermint/DuplicateVoteEvidence",
// "value":{vote_a, vote_b, TotalVotingPower, ValidatorPower, Timestamp}}, `node/` accepted too)
// read into the protobuf Evidence, checked, and handed to the node's evidence pool when the node
// exposes one (NodeHandle has no pool member yet: then a clear error, never a silent drop).
import { handlerError } from "../../src/rpc/errors.js";
import type { BroadcastEvidenceResult } from "../../src/rpc/json/index.js";
import { timestampFromRfc3339 } from "../../src/types/time.js";
import { validateEvidence } from "../../src/types/validate-evidence.js";
import type { Evidence } from "../../src/wire/generated/tendermint/types/evidence.js";
import type { BlockID, Vote } from "../../src/wire/generated/tendermint/types/types.js";
import { evidenceItemHash } from "../../src/wire/hashes.js";
import type { NodeHandle } from "../node-handle.js";

/** What a node handle may expose to accept evidence (structural: the handle does not declare it yet). */
export interface EvidenceIntake {
  addEvidence(evidence: Evidence): Promise<void> | void;
}

type Json = Record<string, unknown>;

function field(obj: Json, name: string, where: string): unknown {
  if (!(name in obj)) throw handlerError(`evidence: ${where}.${name} is missing`);
  return obj[name];
}

function objectAt(value: unknown, where: string): Json {
  if (value === null || typeof value !== "object" || Array.isArray(value)) {
    throw handlerError(`evidence: ${where} must be an object`);
  }
  return value as Json;
}

function int64At(value: unknown, where: string): bigint {
  if (
    (typeof value === "string" && /^-?\d+$/.test(value)) ||
    (typeof value === "number" && Number.isInteger(value))
  ) {
    return BigInt(value);
  }
  throw handlerError(
    `evidence: ${where} must be an integer (a decimal string), got ${JSON.stringify(value)}`,
  );
}

function numberAt(value: unknown, where: string): number {
  if (typeof value === "number" && Number.isInteger(value)) return value;
  if (typeof value === "string" && /^-?\d+$/.test(value)) return Number(value);
  throw handlerError(`evidence: ${where} must be an integer, got ${JSON.stringify(value)}`);
}

function hexAt(value: unknown, where: string): Uint8Array {
  if (typeof value === "string" && /^([0-9a-fA-F]{2})*$/.test(value))
    return new Uint8Array(Buffer.from(value, "hex"));
  throw handlerError(`evidence: ${where} must be hex`);
}

function base64At(value: unknown, where: string): Uint8Array {
  if (value === null) return new Uint8Array(0);
  if (typeof value === "string" && /^[A-Za-z0-9+/]*={0,2}$/.test(value)) {
    return new Uint8Array(Buffer.from(value, "base64"));
  }
  throw handlerError(`evidence: ${where} must be base64`);
}

function timeAt(value: unknown, where: string) {
  if (typeof value !== "string") throw handlerError(`evidence: ${where} must be an RFC 3339 time`);
  try {
    return timestampFromRfc3339(value);
  } catch (error) {
    throw handlerError(`evidence: ${where}: ${(error as Error).message}`);
  }
}

function blockIdAt(value: unknown, where: string): BlockID {
  const o = objectAt(value, where);
  const parts = objectAt(field(o, "parts", where), `${where}.parts`);
  return {
    hash: hexAt(field(o, "hash", where), `${where}.hash`),
    partSetHeader: {
      total: numberAt(field(parts, "total", `${where}.parts`), `${where}.parts.total`),
      hash: hexAt(field(parts, "hash", `${where}.parts`), `${where}.parts.hash`),
    },
  };
}

function voteAt(value: unknown, where: string): Vote {
  const o = objectAt(value, where);
  return {
    type: numberAt(field(o, "type", where), `${where}.type`),
    height: int64At(field(o, "height", where), `${where}.height`),
    round: numberAt(field(o, "round", where), `${where}.round`),
    blockId: blockIdAt(field(o, "block_id", where), `${where}.block_id`),
    timestamp: timeAt(field(o, "timestamp", where), `${where}.timestamp`),
    validatorAddress: hexAt(field(o, "validator_address", where), `${where}.validator_address`),
    validatorIndex: numberAt(field(o, "validator_index", where), `${where}.validator_index`),
    signature: base64At(field(o, "signature", where), `${where}.signature`),
  };
}

/** The envelope as JSON-RPC params carry it, into the protobuf Evidence (checked). */
export function evidenceFromJson(envelope: unknown): Evidence {
  const o = objectAt(envelope, "evidence");
  const type = field(o, "type", "evidence");
  const value = objectAt(field(o, "value", "evidence"), "evidence.value");
  if (type === "tendermint/DuplicateVoteEvidence" || type === "node/DuplicateVoteEvidence") {
    const evidence: Evidence = {
      sum: {
        $case: "duplicateVoteEvidence",
        duplicateVoteEvidence: {
          voteA: voteAt(field(value, "vote_a", "value"), "value.vote_a"),
          voteB: voteAt(field(value, "vote_b", "value"), "value.vote_b"),
          totalVotingPower: int64At(field(value, "TotalVotingPower", "value"), "value.TotalVotingPower"),
          validatorPower: int64At(field(value, "ValidatorPower", "value"), "value.ValidatorPower"),
          timestamp: timeAt(field(value, "Timestamp", "value"), "value.Timestamp"),
        },
      },
    };
    try {
      validateEvidence(evidence);
    } catch (error) {
      throw handlerError(`evidence is invalid: ${(error as Error).message}`);
    }
    return evidence;
  }
  if (type === "tendermint/LightClientAttackEvidence" || type === "node/LightClientAttackEvidence") {
    throw handlerError("light client attack evidence cannot be submitted over RPC on this node yet");
  }
  throw handlerError(
    `evidence type ${JSON.stringify(type)} is unknown (expected tendermint/DuplicateVoteEvidence)`,
  );
}

export async function broadcastEvidence(
  node: NodeHandle,
  envelope: unknown,
): Promise<BroadcastEvidenceResult> {
  const evidence = evidenceFromJson(envelope);
  const intake = (node as unknown as { evidence?: Partial<EvidenceIntake> }).evidence;
  if (intake === undefined || typeof intake.addEvidence !== "function") {
    throw handlerError(
      "this node does not accept evidence over RPC yet: its evidence pool is not exposed to the RPC",
    );
  }
  try {
    await intake.addEvidence(evidence);
  } catch (error) {
    throw handlerError(`evidence was refused: ${(error as Error).message}`);
  }
  return { hash: evidenceItemHash(evidence) };
}
