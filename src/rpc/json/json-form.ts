// The two result forms of the RPC (reference rpc-forms.md): "seed" is the specification's form
// with the non-conflicting v0.34 fields beside it; "tendermint" is a v0.34 node's JSON exactly.

export type JsonForm = "seed" | "tendermint";

/** The prefix of key type strings: `node/PubKeyEd25519` or `tendermint/PubKeyEd25519`. */
export function keyTypePrefix(form: JsonForm): string {
  return form === "tendermint" ? "tendermint" : "node";
}
