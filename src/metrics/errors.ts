// Errors of the metrics module, with string codes (docs/architecture.md).
export type MetricsErrorCode = "METRICS_BAD_LISTEN_ADDR" | "METRICS_LISTEN_FAILED";

export class MetricsError extends Error {
  override readonly name = "MetricsError";
  constructor(
    readonly code: MetricsErrorCode,
    message: string,
  ) {
    super(message);
  }
}
