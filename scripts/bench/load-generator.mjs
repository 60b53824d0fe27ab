// Load generation for the benchmarks, on raw keep-alive sockets.
// openLoop: evenly spaced arrivals at a fixed rate (each request is sent on its own schedule,
// whatever the previous ones are doing), so latency is measured without coordinated omission.
// closedLoop: N workers sending back to back, for maximum throughput.
//
// Why not an HTTP client library: on a 2-core machine the generator shares the cores with the
// process it measures. Through undici's `request` it took 300-400 us of CPU per request (more
// than half a core at 1,000 req/s), so the system measured was a saturated machine. Here each
// request is the same pre-built bytes written to an idle connection, and the answer is read by a
// minimal HTTP/1.1 response reader (status line, Content-Length or chunked body): what wrk2 does.
import { connect } from "node:net";

/** Percentile of a sorted array of numbers. */
export function percentile(sorted, fraction) {
  if (sorted.length === 0) return Number.NaN;
  const index = Math.min(sorted.length - 1, Math.max(0, Math.ceil(fraction * sorted.length) - 1));
  return sorted[index];
}

const crlf = Buffer.from("\r\n");
const headerEnd = Buffer.from("\r\n\r\n");

/** The request's bytes, built once per target: `{ url, headers, body }` as POST (GET without a body). */
function requestBytes(target) {
  const url = new URL(target.url);
  const body = target.body === undefined ? null : Buffer.from(target.body);
  let head = `${body === null ? "GET" : "POST"} ${url.pathname}${url.search} HTTP/1.1\r\nhost: ${url.host}\r\n`;
  for (const [name, value] of Object.entries(target.headers ?? {})) head += `${name}: ${value}\r\n`;
  if (body !== null) head += `content-length: ${body.length}\r\n`;
  head += "\r\n";
  return { port: Number(url.port), host: url.hostname, bytes: body === null ? Buffer.from(head) : Buffer.concat([Buffer.from(head), body]) };
}

/**
 * Reads one HTTP/1.1 answer after another from a connection's bytes. `onFirstBodyByte` fires at
 * the first byte of body data (a stream's first event), `onComplete(status, keepAlive)` when the
 * answer has fully arrived.
 */
class ResponseReader {
  constructor() {
    this.reset();
  }

  reset() {
    this.pending = null; // bytes not consumed yet
    this.phase = "head"; // head | length | chunk-size | chunk-data | chunk-crlf | trailers
    this.status = 0;
    this.keepAlive = true;
    this.remaining = 0;
    this.sawBody = false;
  }

  /**
   * Feeds bytes; returns true when an answer completed (then `status`/`keepAlive` describe it).
   * Pipelining is off, so nothing follows an answer before the next request is written.
   */
  feed(chunk, onFirstBodyByte) {
    let buffer = this.pending === null ? chunk : Buffer.concat([this.pending, chunk]);
    this.pending = null;
    let at = 0;
    for (;;) {
      if (this.phase === "head") {
        const end = buffer.indexOf(headerEnd, at);
        if (end === -1) break;
        const head = buffer.toString("latin1", at, end);
        at = end + 4;
        this.status = Number(head.slice(9, 12));
        const lower = head.toLowerCase();
        this.keepAlive = !/\r\nconnection:\s*close/.test(lower);
        const length = /\r\ncontent-length:\s*(\d+)/.exec(lower);
        if (/\r\ntransfer-encoding:\s*chunked/.test(lower)) this.phase = "chunk-size";
        else {
          this.remaining = length === null ? 0 : Number(length[1]);
          this.phase = "length";
        }
        continue;
      }
      if (this.phase === "length") {
        at = this.takeBody(buffer, at, onFirstBodyByte);
        if (this.remaining > 0) break;
        return true;
      }
      if (this.phase === "chunk-size" || this.phase === "trailers") {
        const lineEnd = buffer.indexOf(crlf, at);
        if (lineEnd === -1) break;
        const line = buffer.toString("latin1", at, lineEnd);
        at = lineEnd + 2;
        if (this.phase === "trailers") {
          if (line === "") return true;
          continue;
        }
        const size = Number.parseInt(line, 16);
        if (size === 0) this.phase = "trailers";
        else {
          this.remaining = size;
          this.phase = "chunk-data";
        }
        continue;
      }
      if (this.phase === "chunk-data") {
        at = this.takeBody(buffer, at, onFirstBodyByte);
        if (this.remaining > 0) break;
        this.phase = "chunk-crlf";
        continue;
      }
      // chunk-crlf
      if (buffer.length - at < 2) break;
      at += 2;
      this.phase = "chunk-size";
    }
    if (at < buffer.length) this.pending = buffer.subarray(at);
    return false;
  }

  /** Takes what `buffer` holds of the current body (Content-Length) or chunk from `at`; returns the new offset. */
  takeBody(buffer, at, onFirstBodyByte) {
    const take = Math.min(this.remaining, buffer.length - at);
    if (take > 0 && !this.sawBody) {
      this.sawBody = true;
      onFirstBodyByte();
    }
    this.remaining -= take;
    return at + take;
  }
}

/**
 * A pool of keep-alive connections to one target. `send(onDone)` writes the request on an idle
 * connection (or a new one, up to `maxConnections`; beyond that it waits for one) and calls
 * `onDone(error, status, firstByteNs)` once the answer has fully arrived; times are
 * `process.hrtime.bigint()` values.
 */
function createConnectionPool(target, maxConnections) {
  // An array of targets (same host and port): each request takes the next one in turn.
  const requests = (Array.isArray(target) ? target : [target]).map(requestBytes);
  const { host, port } = requests[0];
  let nextRequest = 0;
  const idle = [];
  const waiting = [];
  const all = new Set();

  const open = () => {
    const socket = connect({ host, port, noDelay: true });
    const connection = { socket, reader: new ResponseReader(), current: null };
    all.add(connection);
    socket.on("data", (chunk) => {
      const current = connection.current;
      if (current === null) return;
      const done = connection.reader.feed(chunk, () => {
        current.firstByteNs = process.hrtime.bigint();
      });
      if (!done) return;
      const { status, keepAlive } = connection.reader;
      connection.reader.reset();
      connection.current = null;
      if (keepAlive) release(connection);
      else retire(connection);
      current.onDone(null, status, current.firstByteNs);
    });
    const fail = (error) => {
      retire(connection);
      const current = connection.current;
      connection.current = null;
      if (current !== null) current.onDone(error ?? new Error("connection closed"), 0, null);
    };
    socket.on("error", fail);
    socket.on("close", () => fail(null));
    return connection;
  };
  const retire = (connection) => {
    if (!all.delete(connection)) return;
    const index = idle.indexOf(connection);
    if (index !== -1) idle.splice(index, 1);
    connection.socket.destroy();
    if (waiting.length > 0 && all.size < maxConnections) dispatch(open(), waiting.shift());
  };
  const release = (connection) => {
    if (waiting.length > 0) dispatch(connection, waiting.shift());
    else idle.push(connection);
  };
  const dispatch = (connection, request) => {
    connection.current = request;
    connection.socket.write(requests[nextRequest].bytes);
    nextRequest = nextRequest + 1 === requests.length ? 0 : nextRequest + 1;
  };
  return {
    send(onDone) {
      const request = { onDone, firstByteNs: null };
      const connection = idle.pop() ?? (all.size < maxConnections ? open() : null);
      if (connection === null) waiting.push(request);
      else dispatch(connection, request);
    },
    close() {
      for (const connection of [...all]) {
        all.delete(connection);
        connection.socket.destroy();
      }
      idle.length = 0;
    },
  };
}

/**
 * Sends `rate` requests per second, evenly spaced, for `durationSeconds`. The generator sleeps on
 * a timer between sends and, when it wakes, sends every request that has come due, each charged
 * from its scheduled time (so its lateness counts against the system, as in wrk2). It does not
 * spin between sends: on a 2-core machine a spinning generator takes a whole core from the
 * process it measures. `target` may be an array (same host and port), sent in turn;
 * `onAnswer(scheduledNs, latencyMs, ok)` sees each answer as it arrives (for timelines).
 * @returns {Promise<{sent:number, ok:number, errors:number, latencies:number[], firstBytes:number[], lateness:number[]}>}
 */
export async function openLoop({ target, rate, durationSeconds, connections = 256, onAnswer = null }) {
  const pool = createConnectionPool(target, connections);
  const total = Math.round(rate * durationSeconds);
  const intervalNs = 1e9 / rate;
  const start = process.hrtime.bigint();
  const dueAt = (index) => start + BigInt(Math.round(index * intervalNs));
  const latencies = [];
  const firstBytes = [];
  const lateness = [];
  let errors = 0;
  let outstanding = 0;
  let allSent = false;
  let allAnswered = null;
  const answered = new Promise((resolve) => {
    allAnswered = resolve;
  });
  for (let index = 0; index < total; ) {
    const now = process.hrtime.bigint();
    while (index < total && dueAt(index) <= now) {
      // Latency counts from the scheduled time, so a late send is charged to the system.
      const scheduled = dueAt(index);
      lateness.push(Number(now - scheduled) / 1e6);
      outstanding += 1;
      pool.send((error, status, firstByteNs) => {
        const ok = error === null && status >= 200 && status < 300;
        if (ok) {
          latencies.push(Number(process.hrtime.bigint() - scheduled) / 1e6);
          firstBytes.push(firstByteNs === null ? Number.NaN : Number(firstByteNs - scheduled) / 1e6);
        } else errors += 1;
        if (onAnswer !== null) onAnswer(scheduled, Number(process.hrtime.bigint() - scheduled) / 1e6, ok);
        outstanding -= 1;
        if (outstanding === 0 && allSent) allAnswered();
      });
      index += 1;
    }
    if (index >= total) break;
    const waitMs = Number(dueAt(index) - process.hrtime.bigint()) / 1e6;
    await new Promise((resolve) => setTimeout(resolve, Math.max(0, Math.floor(waitMs))));
  }
  allSent = true;
  if (outstanding > 0) await answered;
  pool.close();
  return {
    sent: total,
    ok: latencies.length,
    errors,
    latencies: latencies.sort((a, b) => a - b),
    firstBytes: firstBytes.sort((a, b) => a - b),
    lateness: lateness.sort((a, b) => a - b),
  };
}

/** Closed loop: `concurrency` workers, back to back, for `durationSeconds`. */
export async function closedLoop({ target, concurrency, durationSeconds }) {
  const pool = createConnectionPool(target, concurrency);
  const deadline = Date.now() + durationSeconds * 1000;
  let ok = 0;
  let errors = 0;
  const started = process.hrtime.bigint();
  await Promise.all(
    Array.from(
      { length: concurrency },
      () =>
        new Promise((resolve) => {
          const next = () => {
            if (Date.now() >= deadline) {
              resolve();
              return;
            }
            pool.send((error, status) => {
              if (error === null && status >= 200 && status < 300) ok += 1;
              else errors += 1;
              next();
            });
          };
          next();
        }),
    ),
  );
  const elapsedSeconds = Number(process.hrtime.bigint() - started) / 1e9;
  pool.close();
  return { ok, errors, elapsedSeconds, requestsPerSecond: ok / elapsedSeconds };
}
