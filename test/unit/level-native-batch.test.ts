// FillingBatch (src/level/native-batch.ts) gives its database's batch back however the write
// ends: a binding that throws before the write starts must not leave the batch busy for good.
import assert from "node:assert/strict";
import { test } from "node:test";
import { FillingBatch } from "../../src/level/native-batch.js";

function fakeBinding(write: () => Promise<void>) {
  const calls: string[] = [];
  const binding = {
    batch_init: () => ({}),
    batch_put: () => calls.push("put"),
    batch_del: () => calls.push("del"),
    batch_clear: () => calls.push("clear"),
    batch_write: () => {
      calls.push("write");
      return write();
    },
  };
  return { binding, calls };
}

test("a write the binding refuses at once (thrown) is rejected, and the batch is cleared and released", async () => {
  const { binding, calls } = fakeBinding(() => {
    throw new Error("binding refused");
  });
  const released: number[] = [];
  const batch = new FillingBatch(
    binding,
    {},
    (bytes) => released.push(bytes),
    () => true,
  );
  batch.put(new Uint8Array(3), new Uint8Array(1));
  await assert.rejects(batch.write(false), /binding refused/);
  assert.deepEqual(calls, ["put", "write", "clear"]);
  assert.deepEqual(released, [4]);
});

test("a write that fails later is rejected, and the batch is cleared and released", async () => {
  const { binding, calls } = fakeBinding(() => Promise.reject(new Error("EIO")));
  const released: number[] = [];
  const batch = new FillingBatch(
    binding,
    {},
    (bytes) => released.push(bytes),
    () => true,
  );
  batch.del(new Uint8Array(2));
  await assert.rejects(batch.write(true), /EIO/);
  assert.deepEqual(calls, ["del", "write", "clear"]);
  assert.deepEqual(released, [2]);
});
