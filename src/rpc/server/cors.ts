// CORS as Tendermint configures rs/cors (reference §1.2): enabled only when allowed origins are
// set; "*" allows every origin; an origin pattern may hold one "*" wildcard; preflights are
// answered 204 with the allowed method and headers; "Origin" is always an allowed header.

export interface CorsSettings {
  allowedOrigins: readonly string[];
  allowedMethods: readonly string[];
  allowedHeaders: readonly string[];
}

export interface CorsRequest {
  method: string;
  origin: string;
  requestMethod: string;
  requestHeaders: string;
}

export type Header = readonly [string, string];

export class CorsPolicy {
  private readonly any: boolean;
  private readonly exact: Set<string>;
  private readonly wildcards: Array<[string, string]>;
  private readonly methods: Set<string>;
  private readonly headers: Set<string>;

  constructor(settings: CorsSettings) {
    this.any = settings.allowedOrigins.includes("*");
    this.exact = new Set(settings.allowedOrigins.filter((o) => !o.includes("*")).map((o) => o.toLowerCase()));
    this.wildcards = settings.allowedOrigins
      .filter((o) => o !== "*" && o.includes("*"))
      .map((o) => {
        const at = o.indexOf("*");
        return [o.slice(0, at).toLowerCase(), o.slice(at + 1).toLowerCase()];
      });
    this.methods = new Set(settings.allowedMethods.map((m) => m.toUpperCase()));
    this.headers = new Set(["origin", ...settings.allowedHeaders.map((h) => h.toLowerCase())]);
  }

  private originAllowed(origin: string): boolean {
    if (this.any) return true;
    const o = origin.toLowerCase();
    if (this.exact.has(o)) return true;
    return this.wildcards.some(
      ([pre, post]) => o.length >= pre.length + post.length && o.startsWith(pre) && o.endsWith(post),
    );
  }

  private allowOrigin(origin: string): Header {
    return ["Access-Control-Allow-Origin", this.any ? "*" : origin];
  }

  isPreflight(req: CorsRequest): boolean {
    return req.method === "OPTIONS" && req.requestMethod !== "";
  }

  /** Headers of a preflight answer (sent with 204); only Vary when not allowed. */
  preflight(req: CorsRequest): Header[] {
    const headers: Header[] = [
      ["Vary", "Origin, Access-Control-Request-Method, Access-Control-Request-Headers"],
    ];
    const method = req.requestMethod.toUpperCase();
    if (req.origin === "" || !this.originAllowed(req.origin) || !this.methods.has(method)) return headers;
    const requested = req.requestHeaders
      .split(",")
      .map((h) => h.trim())
      .filter((h) => h !== "");
    if (!requested.every((h) => this.headers.has(h.toLowerCase()))) return headers;
    headers.push(this.allowOrigin(req.origin), ["Access-Control-Allow-Methods", method]);
    if (requested.length > 0) headers.push(["Access-Control-Allow-Headers", requested.join(", ")]);
    return headers;
  }

  /** Headers added to an actual response. */
  actual(req: CorsRequest): Header[] {
    const headers: Header[] = [["Vary", "Origin"]];
    if (req.origin === "" || !this.originAllowed(req.origin) || !this.methods.has(req.method.toUpperCase()))
      return headers;
    headers.push(this.allowOrigin(req.origin));
    return headers;
  }
}
