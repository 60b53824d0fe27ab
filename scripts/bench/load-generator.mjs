// Load generation for the benchmarks.
// openLoop: evenly spaced arrivals at a fixed rate (each request is sent on its own schedule,
// whatever the previous ones are doing), so latency is measured without coordinated omission.
// closedLoop: N workers sending back to back, for maximum throughput.
import { createRequire } from "node:module";

// The repository root has no dependencies of its own: take undici from the gateway app (it is
// one of its dependencies), the same copy the gateway uses for upstream calls.
const { Agent, request } = createRequire(new URL("../../apps/gateway/package.json", import.meta.url))("undici");

/** Percentile of a sorted array of numbers. */
export function percentile(sorted, fraction) {
  if (sorted.length === 0) return Number.NaN;
  const index = Math.min(sorted.length - 1, Math.max(0, Math.ceil(fraction * sorted.length) - 1));
  return sorted[index];
}

async function sendOne(dispatcher, target, measureFirstByte) {
  const started = process.hrtime.bigint();
  const response = await request(target.url, {
    method: "POST",
    headers: target.headers,
    body: target.body,
    dispatcher,
  });
  let firstByteNs = null;
  for await (const chunk of response.body) {
    if (firstByteNs === null && chunk.length > 0) firstByteNs = process.hrtime.bigint() - started;
    if (!measureFirstByte) continue;
  }
  const totalNs = process.hrtime.bigint() - started;
  return {
    status: response.statusCode,
    latencyMs: Number(totalNs) / 1e6,
    firstByteMs: firstByteNs === null ? Number.NaN : Number(firstByteNs) / 1e6,
  };
}

/**
 * Sends `rate` requests per second, evenly spaced, for `durationSeconds`. The generator sleeps on
 * a timer between sends and, when it wakes, sends every request that has come due, each charged
 * from its scheduled time (so its lateness counts against the system, as in wrk2). It does not
 * spin between sends: on a 2-core machine a spinning generator takes a whole core from the
 * process it measures.
 * @returns {Promise<{sent:number, ok:number, errors:number, latencies:number[], firstBytes:number[], lateness:number[]}>}
 */
export async function openLoop({ target, rate, durationSeconds, connections = 256 }) {
  const dispatcher = new Agent({ connections, pipelining: 1, keepAliveTimeout: 30_000 });
  const total = Math.round(rate * durationSeconds);
  const intervalNs = 1e9 / rate;
  const start = process.hrtime.bigint();
  const dueAt = (index) => start + BigInt(Math.round(index * intervalNs));
  const pending = [];
  const results = [];
  const lateness = [];
  let errors = 0;
  for (let index = 0; index < total; ) {
    const now = process.hrtime.bigint();
    while (index < total && dueAt(index) <= now) {
      // Latency counts from the scheduled time, so a late send is charged to the system.
      const lateMs = Number(now - dueAt(index)) / 1e6;
      lateness.push(lateMs);
      pending.push(
        sendOne(dispatcher, target, true).then(
          (result) => {
            if (result.status >= 200 && result.status < 300) results.push({ ...result, latencyMs: result.latencyMs + lateMs, firstByteMs: result.firstByteMs + lateMs });
            else errors += 1;
          },
          () => { errors += 1; },
        ),
      );
      index += 1;
    }
    if (index >= total) break;
    const waitMs = Number(dueAt(index) - process.hrtime.bigint()) / 1e6;
    await new Promise((resolve) => setTimeout(resolve, Math.max(0, Math.floor(waitMs))));
  }
  await Promise.all(pending);
  await dispatcher.close();
  return {
    sent: total,
    ok: results.length,
    errors,
    latencies: results.map((result) => result.latencyMs).sort((a, b) => a - b),
    firstBytes: results.map((result) => result.firstByteMs).sort((a, b) => a - b),
    lateness: lateness.sort((a, b) => a - b),
  };
}

/** Closed loop: `concurrency` workers, back to back, for `durationSeconds`. */
export async function closedLoop({ target, concurrency, durationSeconds }) {
  const dispatcher = new Agent({ connections: concurrency, pipelining: 1, keepAliveTimeout: 30_000 });
  const deadline = Date.now() + durationSeconds * 1000;
  let ok = 0;
  let errors = 0;
  const started = process.hrtime.bigint();
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (Date.now() < deadline) {
        try {
          const result = await sendOne(dispatcher, target, false);
          if (result.status >= 200 && result.status < 300) ok += 1;
          else errors += 1;
        } catch {
          errors += 1;
        }
      }
    }),
  );
  const elapsedSeconds = Number(process.hrtime.bigint() - started) / 1e9;
  await dispatcher.close();
  return { ok, errors, elapsedSeconds, requestsPerSecond: ok / elapsedSeconds };
}
