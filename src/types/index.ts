// The types module owns the domain values around the generated protobuf data model: makers for
// blocks, votes, proposals, commits and evidence; part sets; consensus params and block limits;
// timestamps; and the validation of every message decoded from outside. Genesis, key files and
// validator sets live in their own files here (genesis*.ts, key-file*.ts, validator-set*.ts,
// proposer*.ts) and are imported by path.
export * from "./block.js";
export * from "./block-id.js";
export * from "./block-limits.js";
export * from "./bytes.js";
export * from "./commit.js";
export * from "./consensus-params.js";
export * from "./errors.js";
export * from "./evidence.js";
export * from "./part-set.js";
export * from "./proposal.js";
export * from "./state.js";
export * from "./time.js";
export * from "./validate-block.js";
export * from "./validate-block-id.js";
export * from "./validate-commit.js";
export * from "./validate-evidence.js";
export * from "./validate-fields.js";
export * from "./validate-part.js";
export * from "./validate-proposal.js";
export * from "./validate-public-key.js";
export * from "./validate-vote.js";
export * from "./vote.js";
