// The page `GET /` answers with (reference §1.3): every route as a link, routes without
// arguments first, then the others with their parameters as `?name=_`, usable in a browser.
// Built once per server: the route table does not change while it runs. The node passes its
// version in (src/version.ts reads package.json relative to dist/, so it is not imported here).

import type { Route } from "../route-spec.js";

const ENTITIES: Record<string, string> = {
  "&": "&amp;",
  "<": "&lt;",
  ">": "&gt;",
  '"': "&quot;",
  "'": "&#39;",
};

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ENTITIES[c] as string);
}

function item(r: Route): string {
  const query = r.params.map((p) => `${p.name}=_`).join("&");
  const href = query === "" ? `/${r.name}` : `/${r.name}?${query}`;
  const params =
    r.params.length === 0
      ? ""
      : ` <small>(${r.params.map((p) => `${escapeHtml(p.name)}: ${p.type}${p.optional ? ", optional" : ""}`).join("; ")})</small>`;
  const wsOnly = r.webSocketOnly ? " <small>[WebSocket only]</small>" : "";
  return `<li><a href="${escapeHtml(href)}">${escapeHtml(href)}</a>${params}${wsOnly}<br><span>${escapeHtml(r.description)}</span></li>`;
}

export function renderIndexPage(routes: Iterable<Route>, nodeVersion = ""): string {
  const all = [...routes];
  const noArgs = all.filter((r) => r.params.length === 0).sort((a, b) => a.name.localeCompare(b.name));
  const withArgs = all.filter((r) => r.params.length > 0).sort((a, b) => a.name.localeCompare(b.name));
  return [
    "<!DOCTYPE html>",
    '<html><head><meta charset="utf-8"><title>rxbft RPC</title></head><body>',
    `<h1>rxbft${nodeVersion === "" ? "" : ` ${escapeHtml(nodeVersion)}`} RPC</h1>`,
    `<p>Tendermint v0.34 compatible. Call a route as <code>GET /&lt;route&gt;?arg=value</code>`,
    " (strings in double quotes, bytes as 0x-hex or a quoted string), as JSON-RPC with <code>POST /</code>,",
    " or over the WebSocket at <code>/websocket</code>.</p>",
    "<h2>Available endpoints:</h2><ul>",
    ...noArgs.map(item),
    "</ul><h2>Endpoints that require arguments:</h2><ul>",
    ...withArgs.map(item),
    "</ul></body></html>",
  ].join("\n");
}
