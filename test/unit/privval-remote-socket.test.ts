// Both ends of the remote signer over a real unix socket: the node learns the signer's key, signs
// through it with the file signer's rules (a conflicting vote is refused with the file signer's
// code), a signer for another chain is refused at start, a signer that restarts mid-run answers
// the pending request, a stale socket file of a crashed node is replaced, and a signer with the
// wrong key is refused while the node waits for the right one.
import assert from "node:assert/strict";
import { writeFileSync } from "node:fs";
import { createServer } from "node:net";
import { join } from "node:path";
import { after, describe, it } from "node:test";
import { keyPairFromSeed } from "../../src/crypto/ed25519-keys.js";
import { verifyEd25519 } from "../../src/crypto/ed25519-verify.js";
import { sha256 } from "../../src/crypto/hash.js";
import { createLogger } from "../../src/logger/index.js";
import { FileSigner } from "../../src/privval/file-signer.js";
import { RemoteSignerClient } from "../../src/privval/remote/signer-client.js";
import { RemoteSignerServer } from "../../src/privval/remote/signer-server.js";
import { memorySignStateStore } from "../../src/privval/sign-state-store.js";
import { SignedMsgType, type Vote } from "../../src/wire/generated/tendermint/types/types.js";
import { voteSignBytes } from "../../src/wire/sign-bytes.js";
import { tempFolder } from "../fixtures/temp-folder.js";

const CHAIN = "remote-chain";
const pair = keyPairFromSeed(new Uint8Array(32).fill(3));
const otherPair = keyPairFromSeed(new Uint8Array(32).fill(4));
const lines: string[] = [];
const logger = createLogger({
  level: "debug",
  format: "json",
  destination: { write: (t: string) => lines.push(t) },
});
const dir = tempFolder("rxbft-pv-");
let n = 0;
const socketPath = () => `unix://${join(dir, `s${n++}.sock`)}`;
const toStop: (() => Promise<void>)[] = [];
after(async () => {
  for (const s of toStop) await s();
});

const ascii = (s: string) => new TextEncoder().encode(s);
function vote(fields: Partial<Vote> = {}): Vote {
  return {
    type: SignedMsgType.SIGNED_MSG_TYPE_PREVOTE,
    height: 7n,
    round: 0,
    blockId: { hash: sha256(ascii("a")), partSetHeader: { total: 1, hash: sha256(ascii("p")) } },
    timestamp: { seconds: 1700000000n, nanos: 0 },
    validatorAddress: new Uint8Array(20),
    validatorIndex: 0,
    signature: new Uint8Array(0),
    ...fields,
  };
}

async function pairUp(options: { chain?: string; key?: typeof pair; laddr?: string } = {}) {
  const laddr = options.laddr ?? socketPath();
  const client = await RemoteSignerClient.listen({ laddr, chainId: CHAIN, logger: logger.child("privval") });
  toStop.push(() => client.close());
  const store = memorySignStateStore();
  const fileSigner = new FileSigner((options.key ?? pair).privateKey, store, store.state);
  const server = new RemoteSignerServer({
    node: laddr,
    chainId: options.chain ?? CHAIN,
    signer: fileSigner,
    logger: logger.child("signer"),
  });
  toStop.push(() => server.stop());
  server.start();
  return { client, server, store, fileSigner, laddr };
}

describe("remote signer over a unix socket", () => {
  it("learns the signer's key and signs a vote the signer's state records", async () => {
    const { client, store } = await pairUp();
    assert.deepEqual(Buffer.from(await client.waitForPublicKey()), Buffer.from(pair.publicKey));
    const signed = await client.signVote(CHAIN, vote());
    assert.ok(verifyEd25519(pair.publicKey, voteSignBytes(CHAIN, signed), signed.signature));
    assert.equal(store.saved.at(-1)?.height, 7n);
    // The same vote again: the stored signature comes back (the node may retry after a drop).
    const again = await client.signVote(CHAIN, vote());
    assert.deepEqual(Buffer.from(again.signature), Buffer.from(signed.signature));
  });

  it("refuses a conflicting vote with the file signer's code, and never retries a refusal", async () => {
    const { client, store } = await pairUp();
    await client.waitForPublicKey();
    await client.signVote(CHAIN, vote());
    const saves = store.saved.length;
    await assert.rejects(
      client.signVote(
        CHAIN,
        vote({
          blockId: { hash: sha256(ascii("b")), partSetHeader: { total: 1, hash: sha256(ascii("q")) } },
        }),
      ),
      (e: Error & { code?: string }) =>
        e.code === "PRIVVAL_CONFLICTING_DATA" &&
        /refused to sign the prevote 7\/0: PRIVVAL_CONFLICTING_DATA/.test(e.message),
    );
    assert.equal(store.saved.length, saves);
  });

  it("a signer for another chain is refused at start, naming both chains", async () => {
    const { client } = await pairUp({ chain: "someone-else" });
    await assert.rejects(
      client.waitForPublicKey(),
      (e: Error & { code?: string }) =>
        e.code === "PRIVVAL_WRONG_CHAIN_ID" &&
        /signs for chain "someone-else", the request is for chain "remote-chain"/.test(e.message),
    );
  });

  it("a signer killed mid-run and started again answers the pending request", async () => {
    const { client, server, fileSigner, laddr } = await pairUp();
    await client.waitForPublicKey();
    await client.signVote(CHAIN, vote({ height: 8n }));
    await server.stop();
    const pending = client.signVote(CHAIN, vote({ height: 9n }));
    await new Promise((r) => setTimeout(r, 300));
    const again = new RemoteSignerServer({ node: laddr, chainId: CHAIN, signer: fileSigner, logger });
    toStop.push(() => again.stop());
    again.start();
    const signed = await pending;
    assert.equal(signed.height, 9n);
    assert.ok(verifyEd25519(pair.publicKey, voteSignBytes(CHAIN, signed), signed.signature));
  });

  it("a signer with another key than the first is closed; the right one then signs", async () => {
    const { client, server, fileSigner, laddr } = await pairUp();
    await client.waitForPublicKey();
    await server.stop();
    const store = memorySignStateStore();
    const impostor = new RemoteSignerServer({
      node: laddr,
      chainId: CHAIN,
      signer: new FileSigner(otherPair.privateKey, store, store.state),
      logger,
    });
    impostor.start();
    const pending = client.signVote(CHAIN, vote({ height: 10n }));
    await new Promise((r) => setTimeout(r, 300));
    await impostor.stop();
    assert.ok(lines.some((l) => l.includes("PRIVVAL_REMOTE_WRONG_KEY")));
    assert.equal(store.saved.length, 0, "the impostor was never asked to sign");
    const right = new RemoteSignerServer({ node: laddr, chainId: CHAIN, signer: fileSigner, logger });
    toStop.push(() => right.stop());
    right.start();
    assert.equal((await pending).height, 10n);
  });

  it("replaces a stale socket file, refuses a live one and a path that is not a socket", async () => {
    const laddr = socketPath();
    const path = laddr.slice("unix://".length);
    const live = createServer();
    await new Promise<void>((r) => live.listen(path, () => r()));
    await assert.rejects(
      RemoteSignerClient.listen({ laddr, chainId: CHAIN, logger }),
      /another process is listening on this socket/,
    );
    // A server that closes without unlinking leaves a stale file, as a killed node does.
    await new Promise<void>((r) => live.close(() => r()));
    writeFileSync(join(dir, "plain"), "x");
    await assert.rejects(
      RemoteSignerClient.listen({ laddr: `unix://${join(dir, "plain")}`, chainId: CHAIN, logger }),
      /exists and is not a socket/,
    );
    const { client } = await pairUp({ laddr });
    await client.waitForPublicKey();
  });

  it("over tcp: the secret connection carries the same protocol", async () => {
    const client = await RemoteSignerClient.listen({ laddr: "tcp://127.0.0.1:0", chainId: CHAIN, logger });
    toStop.push(() => client.close());
    const store = memorySignStateStore();
    const server = new RemoteSignerServer({
      node: client.listenAddress,
      chainId: CHAIN,
      signer: new FileSigner(pair.privateKey, store, store.state),
      logger,
    });
    toStop.push(() => server.stop());
    server.start();
    assert.deepEqual(Buffer.from(await client.waitForPublicKey()), Buffer.from(pair.publicKey));
    const signed = await client.signVote(CHAIN, vote({ height: 3n }));
    assert.ok(verifyEd25519(pair.publicKey, voteSignBytes(CHAIN, signed), signed.signature));
  });

  it("a plain (unencrypted) client on the tcp port gets nothing signed", async () => {
    const client = await RemoteSignerClient.listen({
      laddr: "tcp://127.0.0.1:0",
      chainId: CHAIN,
      logger,
      timing: { acceptTimeoutMs: 300 },
    });
    toStop.push(() => client.close());
    const { connect } = await import("node:net");
    const port = Number(client.listenAddress.split(":").at(-1));
    const plain = connect(port, "127.0.0.1");
    const closed = new Promise<void>((r) => plain.on("close", () => r()));
    plain.on("error", () => {});
    plain.resume();
    plain.write(Buffer.from("023a00", "hex"));
    await closed;
    assert.ok(lines.some((l) => l.includes("failed its secret handshake")));
  });
});

describe("remote signer answers the node does not accept", () => {
  const tampering = (change: (v: Vote) => Vote) => ({
    publicKey: pair.publicKey,
    signVote: async (chainId: string, v: Vote) => {
      const store = memorySignStateStore();
      return change(await new FileSigner(pair.privateKey, store, store.state).signVote(chainId, v));
    },
    signProposal: () => Promise.reject(new Error("not used")),
  });

  for (const [name, change, problem] of [
    [
      "a vote for another block",
      (v: Vote) => ({ ...v, blockId: { ...v.blockId, hash: sha256(ascii("evil")) } }),
      /differs from the one asked in its block ID/,
    ],
    [
      "a signature that does not verify",
      (v: Vote) => ({ ...v, signature: new Uint8Array(64).fill(1) }),
      /signature does not verify under the signer's public key/,
    ],
  ] as const) {
    it(`${name} is refused (the node halts rather than broadcast it)`, async () => {
      const laddr = socketPath();
      const client = await RemoteSignerClient.listen({ laddr, chainId: CHAIN, logger });
      toStop.push(() => client.close());
      const server = new RemoteSignerServer({
        node: laddr,
        chainId: CHAIN,
        signer: tampering(change),
        logger,
      });
      toStop.push(() => server.stop());
      server.start();
      await client.waitForPublicKey();
      await assert.rejects(
        client.signVote(CHAIN, vote({ height: 11n })),
        (e: Error & { code?: string }) => e.code === "PRIVVAL_REMOTE_BAD_RESPONSE" && problem.test(e.message),
      );
    });
  }
});
