// Result codes of Tendermint's example apps (abci/example/code).
export const CODE_OK = 0;
export const CODE_ENCODING_ERROR = 1;
export const CODE_BAD_NONCE = 2;
export const CODE_UNAUTHORIZED = 3;
export const CODE_UNKNOWN_ERROR = 4;
