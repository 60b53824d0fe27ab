// The request path's share of the gateway's observability, measured in this process (so a busy
// shared machine moves every figure alike): per request, the call observer of the metrics (one
// attempt and the call's end: calls, durations, first byte, overhead, tokens, cost), the HTTP
// request metrics (in flight, count, duration), and the request's log line (pino JSON written to
// /dev/null asynchronously). BENCH_GATEWAY_ENTRY's directory (default apps/gateway/dist) selects the build.
import { EventEmitter, once } from "node:events";
import { dirname, join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

const root = fileURLToPath(new URL("../../", import.meta.url));

/** Microseconds per operation of `operation`, after a warm-up. */
function timePerOperation(operation, iterations) {
  for (let index = 0; index < iterations / 10; index += 1) operation(index);
  const started = process.hrtime.bigint();
  for (let index = 0; index < iterations; index += 1) operation(index);
  return Number(process.hrtime.bigint() - started) / iterations / 1000;
}

export async function measureObservabilityHotPath({ iterations = 100_000 } = {}) {
  const entry = join(root, dirname(process.env.BENCH_GATEWAY_ENTRY ?? "apps/gateway/dist/main.js"), "index.js");
  const { createGatewayMetrics, createGatewayLogger } = await import(pathToFileURL(entry).href);
  const { pino } = await import(pathToFileURL(join(root, "apps/gateway/node_modules/pino/pino.js")).href);
  const metrics = createGatewayMetrics({ defaultMetrics: false });
  const target = { connection: { name: "mock" }, qualifiedModel: "mock/bench/model" };
  const event = { endpoint: "chat_completions", status: 200, latencyMs: 3, timeToFirstByteMs: 2, inputTokens: 12, outputTokens: 7, cacheReadTokens: 0, cacheWriteTokens: 0, reasoningTokens: 0, costMicros: 20 };
  const request = { method: "POST" };
  const destination = pino.destination({ dest: "/dev/null", sync: false });
  await once(destination, "ready");
  const logger = createGatewayLogger({ destination, format: "json" });
  const line = { request_id: "req_0123456789abcdefghij", method: "POST", route: "/v1/chat/completions", status: 200, duration_ms: 3, organization_id: "org_0123456789abcdefghij", project_id: "prj_0123456789abcdefghijk" };
  const rows = [
    ["call metrics (observer: one attempt, the call's end)", timePerOperation(() => {
      const call = metrics.observer.callStarted({ requestId: "req" });
      call.attemptEnded({ target, kind: "first", error: null, startedAt: 1, endedAt: 3 });
      call.callEnded({ event, target, error: null, streamed: false, answeredAt: 3, endedAt: 4 });
    }, iterations)],
    ["HTTP request metrics (in flight, count, duration)", timePerOperation(() => {
      const response = new EventEmitter();
      response.statusCode = 200;
      metrics.observeRequest(request, response, { route: "/v1/chat/completions", startedAt: Date.now() });
      response.emit("close");
    }, iterations)],
    ["request log line", timePerOperation(() => logger.request(line), iterations)],
  ];
  console.log("| per request (in-process) | us |");
  console.log("| --- | --- |");
  for (const [name, micros] of rows) console.log(`| ${name} | ${micros.toFixed(2)} |`);
  await new Promise((resolve) => destination.flush(resolve));
  return rows;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) await measureObservabilityHotPath();
