// The one base of every error this project throws on purpose: a message naming what is wrong and
// where, and a string code per module (`MEMPOOL_TX_TOO_LARGE`) that the RPC and the commands map
// in one place. A module's error class adds only what it carries beyond that (a file, a field
// path, an index). Below every layer: any module may extend it.

export class CodedError<C extends string = string> extends Error {
  readonly code: C;

  constructor(code: C, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.code = code;
    this.name = new.target.name;
  }
}
