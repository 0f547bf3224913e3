// A consensus reactor message (tendermint.consensus.Message's oneof): what the gossip reducer reads
// and writes. The wire codec (src/p2p/consensus-wire.ts) turns it into bytes and back.
import type { Message } from "../../wire/generated/tendermint/consensus/types.js";

export type ConsensusMessage = NonNullable<Message["sum"]>;
