// The subscribers' side of rpc-fanout.bench.ts, in its own process (forked, driven over IPC) so
// its CPU time is its own and can be printed beside the node's. It must cost much less than the
// server it measures on 2 shared cores, so it speaks raw WebSocket frames over net sockets and
// never parses JSON per message: it finds each message's tx by scanning the frame's bytes for
// `"tx":"` and either keeps the base64 text (the first firehose subscriber, whose set is the
// truth, and the filtered ones, whose sets are small) or folds its bytes into a count and two
// order-free checksums (the other firehose subscribers, compared with the truth's).
// Messages: {op:"connect", address, filtered, firehose} -> {op:"connected", ms};
//           {op:"counts"} -> {op:"counts", firehose:[count…]} (to wait for the last messages);
//           {op:"report", committed} -> {op:"report", truth, delivered, missing, extra,
//             mismatched, cancelled, firehoseCounts, cpuMs} (cpuMs: the process's CPU so far);
//           {op:"close"} -> {op:"closed"} (sockets destroyed, counts reset).
import net from "node:net";

const TX_MARK = Buffer.from('"tx":"');
const ERROR_MARK = Buffer.from('"error":');
const QUOTE = 0x22;
const MASK = Buffer.from([0, 0, 0, 0]); // a zero mask: masked as the protocol asks, bytes unchanged

/** One client frame (masked, as RFC 6455 requires of clients) carrying `payload`. */
function clientFrame(opcode, payload) {
  const length = payload.length;
  const head = length < 126 ? 2 : 4;
  const frame = Buffer.allocUnsafe(head + 4 + length);
  frame[0] = 0x80 | opcode;
  if (length < 126) frame[1] = 0x80 | length;
  else {
    frame[1] = 0x80 | 126;
    frame.writeUInt16BE(length, 2);
  }
  MASK.copy(frame, head);
  payload.copy(frame, head + 4);
  return frame;
}

/** FNV-1a over bytes [from, to): one of the two order-free checksums' terms. */
function fnv(buf, from, to) {
  let h = 0x811c9dc5;
  for (let i = from; i < to; i++) h = Math.imul(h ^ buf[i], 0x01000193);
  return h >>> 0;
}

/** djb2 over the same bytes: the second term, so one colliding hash does not hide a difference. */
function djb(buf, from, to) {
  let h = 5381;
  for (let i = from; i < to; i++) h = (Math.imul(h, 33) + buf[i]) | 0;
  return h >>> 0;
}

class Subscriber {
  constructor(address, query, keep) {
    this.query = query;
    this.keep = keep; // keep each tx's text (else count and checksums only)
    this.txs = [];
    this.count = 0;
    this.sumA = 0;
    this.sumB = 0;
    this.cancelled = 0;
    this.acked = false;
    this.upgraded = false;
    this.pending = undefined; // bytes of an unfinished frame
    this.fragments = undefined; // payloads of an unfinished fragmented message
    const [host, port] = address.split(":");
    this.socket = net.connect(Number(port), host);
    this.socket.setNoDelay(true);
    this.ready = new Promise((resolve, reject) => {
      this.resolve = resolve;
      this.socket.once("error", reject);
    });
    this.socket.on("connect", () => {
      this.socket.write(
        `GET /websocket HTTP/1.1\r\nHost: ${address}\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n` +
          "Sec-WebSocket-Key: cnhiZnQtZmFub3V0LWJlbmNo\r\nSec-WebSocket-Version: 13\r\n\r\n",
      );
    });
    this.socket.on("data", (chunk) => this.onData(chunk));
    this.socket.on("error", () => {});
  }

  onData(chunk) {
    const buf = this.pending === undefined ? chunk : Buffer.concat([this.pending, chunk]);
    this.pending = undefined;
    let at = 0;
    if (!this.upgraded) {
      const end = buf.indexOf("\r\n\r\n");
      if (end < 0) {
        this.pending = buf;
        return;
      }
      if (!buf.subarray(0, 12).toString("latin1").includes(" 101")) {
        this.socket.destroy();
        throw new Error(`upgrade refused: ${buf.subarray(0, end).toString()}`);
      }
      this.upgraded = true;
      at = end + 4;
      const request = { jsonrpc: "2.0", id: 1, method: "subscribe", params: { query: this.query } };
      this.socket.write(clientFrame(0x1, Buffer.from(JSON.stringify(request))));
    }
    while (at < buf.length) {
      if (buf.length - at < 2) break;
      const b0 = buf[at];
      let length = buf[at + 1] & 0x7f;
      let head = 2;
      if (length === 126) {
        if (buf.length - at < 4) break;
        length = buf.readUInt16BE(at + 2);
        head = 4;
      } else if (length === 127) {
        if (buf.length - at < 10) break;
        length = Number(buf.readBigUInt64BE(at + 2));
        head = 10;
      }
      if (buf.length - at < head + length) break;
      const from = at + head;
      const to = from + length;
      at = to;
      const opcode = b0 & 0x0f;
      const fin = (b0 & 0x80) !== 0;
      if (opcode === 0x9) this.socket.write(clientFrame(0xa, buf.subarray(from, to)));
      else if (opcode === 0x8) this.socket.end();
      else if (opcode === 0x1 || opcode === 0x0) {
        if (fin && this.fragments === undefined) this.onMessage(buf, from, to);
        else {
          if (this.fragments === undefined) this.fragments = [];
          this.fragments.push(Buffer.from(buf.subarray(from, to)));
          if (fin) {
            const whole = Buffer.concat(this.fragments);
            this.fragments = undefined;
            this.onMessage(whole, 0, whole.length);
          }
        }
      }
    }
    if (at < buf.length) this.pending = Buffer.from(buf.subarray(at));
  }

  onMessage(buf, from, to) {
    if (!this.acked) {
      this.acked = true;
      if (buf.indexOf(ERROR_MARK, from) >= 0 && buf.indexOf(ERROR_MARK, from) < to) {
        throw new Error(`subscribe ${this.query} refused: ${buf.subarray(from, to).toString()}`);
      }
      this.resolve();
      return;
    }
    const mark = buf.indexOf(TX_MARK, from);
    if (mark < 0 || mark >= to) {
      const error = buf.indexOf(ERROR_MARK, from);
      if (error >= 0 && error < to) this.cancelled++;
      return;
    }
    const start = mark + TX_MARK.length;
    const end = buf.indexOf(QUOTE, start);
    this.count++;
    if (this.keep) this.txs.push(buf.latin1Slice(start, end));
    else {
      this.sumA = (this.sumA + fnv(buf, start, end)) >>> 0;
      this.sumB = (this.sumB + djb(buf, start, end)) >>> 0;
    }
  }

  /** The order-free checksums of a list of base64 txs, as `onMessage` folds them. */
  static sums(txs) {
    let sumA = 0;
    let sumB = 0;
    for (const tx of txs) {
      const bytes = Buffer.from(tx, "latin1");
      sumA = (sumA + fnv(bytes, 0, bytes.length)) >>> 0;
      sumB = (sumB + djb(bytes, 0, bytes.length)) >>> 0;
    }
    return { sumA, sumB };
  }
}

const keyOf = (base64) => Buffer.from(base64, "base64").toString("latin1").split("=")[0];

/**
 * Every committed tx at every matching subscriber: the first firehose subscriber's txs are the
 * truth (short of `committed`, the rest is missing at every firehose subscriber), the others
 * must hold as many with the same checksums, and filtered subscriber N exactly the truth's txs
 * of key kN.
 */
function check(committed) {
  const first = firehose[0];
  const truth = new Set(first?.txs ?? []);
  let missing = firehose.length * Math.max(0, committed - truth.size);
  let extra = firehose.length * Math.max(0, truth.size - committed) + ((first?.count ?? 0) - truth.size);
  let mismatched = 0;
  const { sumA, sumB } = Subscriber.sums(truth);
  for (const sub of firehose.slice(1)) {
    missing += Math.max(0, truth.size - sub.count);
    extra += Math.max(0, sub.count - truth.size);
    if (sub.count === truth.size && (sub.sumA !== sumA || sub.sumB !== sumB)) mismatched++;
  }
  const byKey = new Map();
  for (const tx of truth) {
    const key = keyOf(tx);
    const list = byKey.get(key);
    if (list) list.push(tx);
    else byKey.set(key, [tx]);
  }
  filtered.forEach((sub, n) => {
    const expected = byKey.get(`k${n}`) ?? [];
    const got = new Set(sub.txs);
    for (const tx of expected) if (!got.has(tx)) missing++;
    const wanted = new Set(expected);
    for (const tx of sub.txs) if (!wanted.has(tx)) extra++;
    extra += sub.txs.length - got.size; // the same tx twice
  });
  const all = [...firehose, ...filtered];
  return {
    truth: truth.size,
    delivered: all.reduce((sum, s) => sum + s.count, 0),
    missing,
    extra,
    mismatched,
    cancelled: all.reduce((sum, s) => sum + s.cancelled, 0),
    firehoseCounts: firehose.map((s) => s.count),
  };
}

let filtered = [];
let firehose = [];

process.on("message", async (message) => {
  if (message.op === "connect") {
    const started = performance.now();
    // a few at a time: 1,010 upgrades at once would queue behind each other anyway
    for (let n = 0; n < message.filtered; n += 20) {
      const batch = [];
      for (let k = n; k < Math.min(message.filtered, n + 20); k++) {
        batch.push(new Subscriber(message.address, `tm.event='Tx' AND app.key='k${k}'`, true));
      }
      await Promise.all(batch.map((s) => s.ready));
      filtered.push(...batch);
    }
    for (let n = 0; n < message.firehose; n++) {
      const sub = new Subscriber(message.address, "tm.event='Tx'", n === 0);
      await sub.ready;
      firehose.push(sub);
    }
    process.send({ op: "connected", ms: performance.now() - started });
  } else if (message.op === "counts") {
    process.send({ op: "counts", firehose: firehose.map((s) => s.count) });
  } else if (message.op === "report") {
    const cpu = process.cpuUsage();
    process.send({ op: "report", ...check(message.committed), cpuMs: (cpu.user + cpu.system) / 1000 });
  } else if (message.op === "close") {
    for (const sub of [...filtered, ...firehose]) sub.socket.destroy();
    filtered = [];
    firehose = [];
    process.send({ op: "closed" });
  }
});
