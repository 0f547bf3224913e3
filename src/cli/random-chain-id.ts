// Random chain ids as Tendermint makes them: a prefix and six random alphanumeric characters.
import { randomInt } from "node:crypto";

const ALPHANUMERIC = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";

export function randomChainId(prefix: string): string {
  let suffix = "";
  for (let i = 0; i < 6; i++) suffix += ALPHANUMERIC[randomInt(ALPHANUMERIC.length)];
  return `${prefix}${suffix}`;
}
