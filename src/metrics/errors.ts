// Errors of the metrics module, with string codes (docs/architecture.md).
import { CodedError } from "../coded-error.js";

export type MetricsErrorCode = "METRICS_BAD_LISTEN_ADDR" | "METRICS_LISTEN_FAILED";

export class MetricsError extends CodedError<MetricsErrorCode> {}
