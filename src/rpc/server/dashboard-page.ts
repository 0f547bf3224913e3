// GET /dashboard: a live view of the node in one self-contained page (no CDN, no build step, works
// offline). It reads everything over the RPC's own WebSocket: subscriptions to NewBlock,
// NewRound, NewRoundStep and Vote, and JSON-RPC calls for validators, net_info and
// num_unconfirmed_txs. It reads both result forms (rpc.compat "seed" and "tendermint").
// Shown: height, the current height's round/step timeline, each validator's prevote and precommit
// per round, the proposer, peers, mempool size, and tx/s and block interval charts.

const STYLE = `
body{font:14px system-ui,sans-serif;margin:0;background:#101418;color:#dde3ea}
header{display:flex;gap:24px;align-items:baseline;padding:12px 20px;background:#1a2029;flex-wrap:wrap}
header h1{font-size:18px;margin:0 12px 0 0}
.k{color:#8b98a9;font-size:12px;text-transform:uppercase;letter-spacing:.05em}
.v{font-size:22px;font-weight:600;font-variant-numeric:tabular-nums}
main{display:grid;grid-template-columns:repeat(auto-fit,minmax(420px,1fr));gap:16px;padding:16px 20px}
section{background:#1a2029;border-radius:8px;padding:12px 14px}
h2{font-size:13px;margin:0 0 8px;color:#8b98a9;text-transform:uppercase;letter-spacing:.05em}
table{border-collapse:collapse;font-variant-numeric:tabular-nums}
td,th{padding:2px 6px;text-align:center;font-size:12px}
th{color:#8b98a9;font-weight:500}
td.addr{text-align:left;font-family:monospace}
.c{display:inline-block;width:14px;height:14px;border-radius:3px;background:#2a323d}
.c.block{background:#3fb950}.c.nil{background:#d29922}
ol{margin:0;padding-left:34px;max-height:220px;overflow:auto;font-size:12px;font-family:monospace}
svg{width:100%;height:120px;background:#141a21;border-radius:4px}
#state.down{color:#f85149}
`;

const SCRIPT = `
"use strict";
const $ = (id) => document.getElementById(id);
const num = (x) => (x === undefined || x === null ? NaN : Number(x));
const short = (h) => (h ? String(h).slice(0, 12) : "nil");
let ws, nextId = 1, pending = new Map(), height = 0, validators = [], votes = new Map(), lastVotes = new Map(), timeline = [];
const blocks = [];
function call(method, params) {
  return new Promise((resolve, reject) => {
    const id = nextId++;
    pending.set(id, { resolve, reject });
    ws.send(JSON.stringify({ jsonrpc: "2.0", id, method, params: params || {} }));
  });
}
function valueOf(data) { return data && data.value !== undefined ? data.value : data; }
function setText(id, text) { const e = $(id); if (e.textContent !== String(text)) e.textContent = text; }
function onEvent(type, v) {
  if (type === "NewBlock") {
    const h = v.block.header, txs = v.block.data;
    const n = Array.isArray(txs) ? txs.length : ((txs && txs.txs) || []).length;
    blocks.push({ height: num(h.height), time: Date.parse(h.time), txs: n });
    if (blocks.length > 120) blocks.shift();
    setText("height", h.height);
    drawCharts();
  } else if (type === "NewRound") {
    if (v.proposer) setText("proposer", "#" + v.proposer.index + " " + short(v.proposer.address));
    step(v);
  } else if (type === "NewRoundStep" || type === "RoundState") {
    step(v);
  } else if (type === "Vote") {
    const vote = v.Vote || v.vote || v;
    if (num(vote.height) !== height) return;
    // Votes of this height; until the first comes, the grid keeps the last height's (a single
    // validator decides within milliseconds and then waits timeout_commit in the next height).
    const key = vote.round + "/" + vote.type + "/" + vote.validator_index;
    votes.set(key, vote.block_id && vote.block_id.hash ? "block" : "nil");
    drawVotes();
  }
}
function step(v) {
  const h = num(v.height);
  if (h !== height) {
    height = h; if (votes.size > 0) lastVotes = votes; votes = new Map(); timeline = [];
    call("validators", { height: String(h), per_page: "100" }).then((r) => { validators = r.validators; drawVotes(); }, () => {});
  }
  setText("round", v.round);
  setText("step", String(v.step).replace("RoundStep", ""));
  const at = new Date().toISOString().slice(11, 23);
  timeline.push(at + "  r" + v.round + "  " + String(v.step).replace("RoundStep", ""));
  const ol = $("timeline");
  ol.innerHTML = "";
  for (const t of timeline.slice(-60)) { const li = document.createElement("li"); li.textContent = t; ol.appendChild(li); }
  ol.scrollTop = ol.scrollHeight;
  drawVotes();
}
function drawVotes() {
  const shown = votes.size > 0 || lastVotes.size === 0 ? votes : lastVotes;
  setText("votes-height", shown === votes ? "height " + height : "height " + (height - 1) + " (decided)");
  let rounds = 0;
  for (const k of shown.keys()) rounds = Math.max(rounds, Number(k.split("/")[0]) + 1);
  if (shown === votes) rounds = Math.max(rounds, num($("round").textContent) + 1 || 1);
  const t = $("votes");
  let html = "<tr><th>validator</th>";
  for (let r = 0; r < rounds; r++) html += '<th colspan="2">r' + r + "</th>";
  html += "</tr><tr><th></th>" + "<th>pv</th><th>pc</th>".repeat(rounds) + "</tr>";
  validators.forEach((val, i) => {
    html += '<tr><td class="addr">#' + i + " " + short(val.address) + "</td>";
    for (let r = 0; r < rounds; r++) for (const type of [1, 2]) {
      const c = shown.get(r + "/" + type + "/" + i) || "";
      html += '<td><span class="c ' + c + '" title="' + (type === 1 ? "prevote" : "precommit") + " r" + r + ": " + (c || "none") + '"></span></td>';
    }
    html += "</tr>";
  });
  t.innerHTML = html;
}
function chart(id, points, unit) {
  const svg = $(id);
  if (points.length < 2) return;
  const max = Math.max(...points.map((p) => p[1]), 1e-9), w = 300, h = 100;
  const x0 = points[0][0], x1 = points[points.length - 1][0] || 1;
  const d = points.map((p, i) => (i ? "L" : "M") + (((p[0] - x0) / Math.max(1, x1 - x0)) * w).toFixed(1) + "," + (h - (p[1] / max) * (h - 10)).toFixed(1)).join(" ");
  svg.innerHTML = '<path d="' + d + '" fill="none" stroke="#58a6ff" stroke-width="1.5" vector-effect="non-scaling-stroke"/>' +
    '<text x="4" y="12" fill="#8b98a9" font-size="10">max ' + max.toFixed(2) + " " + unit + "</text>";
}
function drawCharts() {
  const rate = [], interval = [];
  for (let i = 1; i < blocks.length; i++) {
    const dt = (blocks[i].time - blocks[i - 1].time) / 1000;
    interval.push([blocks[i].height, dt]);
    rate.push([blocks[i].height, dt > 0 ? blocks[i].txs / dt : 0]);
  }
  chart("txs-chart", rate, "tx/s");
  chart("interval-chart", interval, "s");
  if (rate.length) setText("tps", rate[rate.length - 1][1].toFixed(1));
}
async function poll() {
  if (!ws || ws.readyState !== 1) return;
  try { const n = await call("net_info"); setText("peers", n.n_peers); } catch { setText("peers", "-"); }
  try { const m = await call("num_unconfirmed_txs"); setText("mempool", m.n_txs); } catch { setText("mempool", "-"); }
}
function connect() {
  ws = new WebSocket((location.protocol === "https:" ? "wss://" : "ws://") + location.host + "/websocket");
  ws.onopen = () => {
    $("state").textContent = "live"; $("state").className = "";
    for (const e of ["NewBlock", "NewRound", "NewRoundStep", "Vote"]) call("subscribe", { query: "tm.event='" + e + "'" }).catch(() => {});
    call("status").then((s) => setText("height", s.sync_info.latest_block_height), () => {});
    poll();
  };
  ws.onmessage = (m) => {
    const msg = JSON.parse(m.data);
    const p = pending.get(msg.id);
    if (p && (msg.error || (msg.result && !msg.result.data))) {
      pending.delete(msg.id);
      return msg.error ? p.reject(msg.error) : p.resolve(msg.result);
    }
    if (msg.result && msg.result.data) {
      const type = String(msg.result.data.type).replace("tendermint/event/", "");
      onEvent(type, valueOf(msg.result.data));
    }
  };
  ws.onclose = () => { $("state").textContent = "disconnected: retrying"; $("state").className = "down"; setTimeout(connect, 2000); };
}
setInterval(poll, 1000);
connect();
`;

export const DASHBOARD_HTML = `<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<title>rxbft dashboard</title><style>${STYLE}</style></head><body>
<header><h1>rxbft</h1><span id="state">connecting</span>
<div><div class="k">height</div><div class="v" id="height">-</div></div>
<div><div class="k">round</div><div class="v" id="round">-</div></div>
<div><div class="k">step</div><div class="v" id="step">-</div></div>
<div><div class="k">proposer</div><div class="v" id="proposer">-</div></div>
<div><div class="k">peers</div><div class="v" id="peers">-</div></div>
<div><div class="k">mempool</div><div class="v" id="mempool">-</div></div>
<div><div class="k">tx/s</div><div class="v" id="tps">-</div></div></header>
<main>
<section><h2>votes: <span id="votes-height">-</span></h2><table id="votes" class="vote-grid"></table></section>
<section><h2>round / step timeline</h2><ol id="timeline"></ol></section>
<section><h2>tx/s per block</h2><svg id="txs-chart" viewBox="0 0 300 100" preserveAspectRatio="none"></svg></section>
<section><h2>block interval (s)</h2><svg id="interval-chart" viewBox="0 0 300 100" preserveAspectRatio="none"></svg></section>
</main><script>${SCRIPT}</script></body></html>`;
