// How a remote signer's failure is logged for the restart rule (streams/restart-fold.ts): a
// refusal keeps the signer's code and halts the next start too; a signer that stayed away is
// transient, so the next start asks again.
import assert from "node:assert/strict";
import { test } from "node:test";
import { RemoteSignerError } from "../../src/privval/remote/errors.js";
import { codedSignError, isTransientSignFailure } from "../../streams/restart-fold.js";

test("a remote refusal is logged with its code and is not transient", () => {
  const e = codedSignError(
    new RemoteSignerError("PRIVVAL_CONFLICTING_DATA", "the remote signer at unix:///x refused"),
  );
  assert.equal(e.message, "PRIVVAL_CONFLICTING_DATA: the remote signer at unix:///x refused");
  assert.equal(isTransientSignFailure(e.message), false);
  const bad = codedSignError(new RemoteSignerError("PRIVVAL_REMOTE_BAD_RESPONSE", "wrong vote"));
  assert.equal(isTransientSignFailure(bad.message), false);
});

test("an unavailable remote signer, or a full disk at the signer, is transient", () => {
  for (const code of ["PRIVVAL_REMOTE_UNAVAILABLE", "PRIVVAL_STATE_WRITE_FAILED", "PRIVVAL_REMOTE_STOPPED"]) {
    const e = codedSignError(new RemoteSignerError(code, "gone"));
    assert.equal(e.message, `${code}: gone`);
    assert.equal(isTransientSignFailure(e.message), true, code);
  }
});
