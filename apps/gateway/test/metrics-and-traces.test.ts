import { type Server, createServer } from "node:http";
import type { AddressInfo } from "node:net";
import type { ControlPlaneSnapshot, UsageEventRecord } from "@gateway/contracts";
import { type DeliveryTargets, checkReadiness } from "@gateway/pipeline";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type GatewayRuntime, createGatewayRuntime } from "../src/create-gateway-runtime.js";
import { type GatewayMetrics, createGatewayMetrics } from "../src/observability/create-gateway-metrics.js";
import { createOperationsHook } from "../src/observability/create-operations-hook.js";
import { createGatewayTestSnapshot, otherProjectApiKey, testApiKey } from "./support/create-gateway-test-snapshot.js";
import { type WireProvider, openAiHandler, openAiUsage, sendJson, startWireProvider } from "./support/wire-format-providers.js";

/** A local OTLP/HTTP collector: keeps every `ExportTraceServiceRequest` it receives. */
async function startCollector() {
  const spans: OtlpSpan[] = [];
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on("data", (chunk: Buffer) => chunks.push(chunk));
    request.on("end", () => {
      const body = JSON.parse(Buffer.concat(chunks).toString("utf8")) as { resourceSpans: { resource: unknown; scopeSpans: { spans: RawSpan[] }[] }[] };
      for (const resource of body.resourceSpans) {
        for (const scope of resource.scopeSpans) for (const span of scope.spans) spans.push(readSpan(span, request.headers["x-collector-key"]));
      }
      response.writeHead(200, { "content-type": "application/json" }).end("{}");
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, spans, close: () => closeServer(server) };
}

interface RawSpan {
  traceId: string;
  spanId: string;
  parentSpanId?: string;
  name: string;
  kind: number;
  attributes: { key: string; value: Record<string, unknown> }[];
  status?: { code?: number };
}
interface OtlpSpan {
  traceId: string;
  spanId: string;
  parentSpanId: string | undefined;
  name: string;
  kind: number;
  attributes: Record<string, unknown>;
  collectorKey: unknown;
}
function readSpan(span: RawSpan, collectorKey: unknown): OtlpSpan {
  return {
    traceId: span.traceId,
    spanId: span.spanId,
    parentSpanId: span.parentSpanId === "" ? undefined : span.parentSpanId,
    name: span.name,
    kind: span.kind,
    attributes: Object.fromEntries(span.attributes.map((entry) => [entry.key, Object.values(entry.value)[0]])),
    collectorKey,
  };
}

function closeServer(server: Server): Promise<void> {
  server.closeAllConnections();
  return new Promise((resolve) => server.close(() => resolve()));
}

/** The value of one sample of the exposition text (0 when absent). */
function sample(text: string, name: string, labels: Record<string, string> = {}): number {
  for (const line of text.split("\n")) {
    if (!line.startsWith(`${name}{`) && !line.startsWith(`${name} `)) continue;
    const labelText = line.slice(name.length).split(" ")[0]!;
    const present = Object.entries(labels).every(([key, value]) => labelText.includes(`${key}="${value}"`));
    if (present) return Number(line.slice(line.lastIndexOf(" ") + 1));
  }
  return 0;
}

let provider: WireProvider;
let collector: Awaited<ReturnType<typeof startCollector>>;
let runtime: GatewayRuntime;
let metrics: GatewayMetrics;
let url: string;
let server: Server;
const events: UsageEventRecord[] = [];

beforeAll(async () => {
  provider = await startWireProvider(openAiHandler());
  collector = await startCollector();
  const base = createGatewayTestSnapshot({ openai: provider.url });
  const openAi = base.connections.find((connection) => connection.name === "openai-mock")!;
  const snapshot: ControlPlaneSnapshot = {
    ...base,
    // A connection nobody answers on (port 9 refuses): its attempts fail at once and the route falls back.
    connections: [...base.connections, { ...openAi, id: "con_broken", name: "broken", baseUrl: "http://127.0.0.1:9/v1" }],
    routes: [
      { id: "rte_flaky", organizationId: "org_1", alias: "flaky", strategy: "priority", targets: [{ model: "openai-mock/openai/gpt-4o-mini", weight: 1 }], affinity: { enabled: false, ttlSeconds: 60 }, retry: { maxAttempts: 2 } },
      {
        id: "rte_fallback",
        organizationId: "org_1",
        alias: "fallback",
        strategy: "priority",
        targets: [
          { model: "broken/openai/gpt-4o-mini", weight: 1 },
          { model: "openai-mock/openai/gpt-4o-mini", weight: 1 },
        ],
        affinity: { enabled: false, ttlSeconds: 60 },
        retry: { maxAttempts: 1 },
      },
    ],
    rateLimits: [{ id: "lim_other", organizationId: "org_1", scope: "key", scopeId: "key_other", windowSeconds: 60, requestsPerWindow: 1, tokensPerWindow: null, concurrency: null }],
  };
  const targets: DeliveryTargets = {
    telemetryDestinations: [
      { id: "dst_collector", organizationId: "org_1", name: "collector", config: { kind: "otlp_http", endpoint: `${collector.url}/v1/traces`, headers: { "x-collector-key": "collector-secret" } } },
      { id: "dst_elsewhere", organizationId: "org_2", name: "not ours", config: { kind: "otlp_http", endpoint: `${collector.url}/elsewhere`, headers: {} } },
    ],
    notificationChannels: [],
  };
  metrics = createGatewayMetrics({ defaultMetrics: false });
  let created: GatewayRuntime | undefined;
  runtime = await createGatewayRuntime({
    source: { load: async () => snapshot, readVersion: async () => snapshot.version, loadDeliveryTargets: async () => targets },
    sink: { write: async (batch) => void events.push(...batch) },
    settings: {
      bodyLimitBytes: 1_000_000,
      requestTimeoutMs: 10_000,
      upstreamTimeoutMs: 5_000,
      upstreamConnectTimeoutMs: 1_000,
      snapshotPollMs: 60_000,
      usageBatchSize: 100,
      usageFlushMs: 10,
      redisUrl: undefined,
      deliveryFlushMs: 50,
      tracePropagation: true,
    },
    observer: metrics.observer,
    events: metrics.events,
    hooks: [
      createOperationsHook({
        metrics,
        metricsToken: "metrics-token-0123456789",
        logger: null,
        readiness: () => checkReadiness({ snapshot: () => created!.snapshots.current() }, { timeoutMs: 500 }),
      }),
    ],
  });
  created = runtime;
  metrics.watch({ usageQueueDepth: () => runtime.usageQueue.size });
  server = createServer(runtime.handler).listen(0, "127.0.0.1");
  await new Promise<void>((resolve) => server.once("listening", () => resolve()));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  if (server) await closeServer(server);
  await runtime?.close({ timeoutMs: 2000 });
  await Promise.all([provider?.close(), collector?.close()]);
});

const chat = (body: Record<string, unknown>, headers: Record<string, string> = {}, apiKey = testApiKey) =>
  fetch(`${url}/v1/chat/completions`, {
    method: "POST",
    headers: { authorization: `Bearer ${apiKey}`, "content-type": "application/json", ...headers },
    body: JSON.stringify({ messages: [{ role: "user", content: "Hello" }], ...body }),
  });

const scrape = async () => {
  const response = await fetch(`${url}/metrics`, { headers: { authorization: "Bearer metrics-token-0123456789" } });
  expect(response.status).toBe(200);
  expect(response.headers.get("content-type")).toContain("text/plain");
  return response.text();
};

const waitForEvents = async (count: number) => {
  await expect.poll(() => events.length, { timeout: 3000, interval: 10 }).toBeGreaterThanOrEqual(count);
};

const served = { connection: "openai-mock", model: "openai-mock/openai/gpt-4o-mini" };

describe("metrics after real calls", () => {
  it("refuses /metrics on the main port without the token", async () => {
    expect((await fetch(`${url}/metrics`)).status).toBe(401);
    expect((await fetch(`${url}/metrics`, { headers: { authorization: "Bearer wrong-token-0123456789" } })).status).toBe(401);
  });

  it("moves the call, upstream, retry, fallback, token, cost, rejection and latency metrics by what the calls did", async () => {
    const before = await scrape();
    const eventsBefore = events.length;

    expect((await chat({ model: "openai-mock/openai/gpt-4o-mini" })).status).toBe(200);
    const streamed = await chat({ model: "openai-mock/openai/gpt-4o-mini", stream: true });
    expect(streamed.status).toBe(200);
    await streamed.text();
    // The flaky route: the provider answers 500 once, then the retry succeeds.
    let failNext = true;
    provider.use((request, response) => {
      if (failNext) {
        failNext = false;
        sendJson(response, 500, { error: { message: "overloaded", type: "server_error", param: null, code: null } });
        return;
      }
      return openAiHandler()(request, response);
    });
    expect((await chat({ model: "flaky" })).status).toBe(200);
    provider.use(null);
    expect((await chat({ model: "fallback" })).status).toBe(200);
    // The other project's key has a 1-per-minute limit: the second call is refused.
    expect((await chat({ model: "openai-mock/openai/gpt-4o-mini" }, {}, otherProjectApiKey)).status).toBe(200);
    expect((await chat({ model: "openai-mock/openai/gpt-4o-mini" }, {}, otherProjectApiKey)).status).toBe(429);
    await waitForEvents(eventsBefore + 6);
    const after = await scrape();
    const delta = (name: string, labels: Record<string, string> = {}) => sample(after, name, labels) - sample(before, name, labels);

    expect(delta("gateway_calls_total", { endpoint: "chat_completions", ...served, status_class: "2xx" })).toBe(5);
    expect(delta("gateway_calls_total", { endpoint: "chat_completions", connection: "none", status_class: "4xx" })).toBe(1);
    expect(delta("gateway_rate_limit_rejections_total", { endpoint: "chat_completions" })).toBe(1);
    expect(delta("gateway_call_errors_total", { endpoint: "chat_completions", error_code: "gateway_rate_limit_exceeded" })).toBe(1);

    expect(delta("gateway_upstream_attempts_total", { ...served, kind: "first", outcome: "ok" })).toBe(3);
    expect(delta("gateway_upstream_attempts_total", { ...served, kind: "first", outcome: "error" })).toBe(1);
    expect(delta("gateway_upstream_attempts_total", { ...served, kind: "retry", outcome: "ok" })).toBe(1);
    expect(delta("gateway_upstream_attempts_total", { connection: "broken", kind: "first", outcome: "error" })).toBe(1);
    expect(delta("gateway_upstream_attempts_total", { ...served, kind: "fallback", outcome: "ok" })).toBe(1);
    expect(delta("gateway_upstream_retries_total", served)).toBe(1);
    expect(delta("gateway_upstream_fallbacks_total", served)).toBe(1);
    expect(delta("gateway_upstream_errors_total", served)).toBe(1);
    expect(delta("gateway_upstream_errors_total", { connection: "broken" })).toBe(1);

    const newEvents = events.slice(eventsBefore).filter((event) => event.status === 200);
    expect(newEvents).toHaveLength(5);
    const sum = (pick: (event: UsageEventRecord) => number) => newEvents.reduce((total, event) => total + pick(event), 0);
    expect(sum((event) => event.inputTokens)).toBeGreaterThan(0);
    expect(delta("gateway_tokens_total", { ...served, type: "input" })).toBe(sum((event) => event.inputTokens));
    expect(delta("gateway_tokens_total", { ...served, type: "output" })).toBe(5 * openAiUsage.completion_tokens);
    expect(delta("gateway_tokens_total", { ...served, type: "cache_read" })).toBe(5 * openAiUsage.prompt_tokens_details.cached_tokens);
    expect(delta("gateway_cost_usd_total", served)).toBeCloseTo(sum((event) => event.costMicros) / 1_000_000, 9);
    expect(sum((event) => event.costMicros)).toBeGreaterThan(0);

    // Histograms: one observation per call; the overhead only for calls that reached a provider.
    expect(delta("gateway_call_duration_seconds_count", { endpoint: "chat_completions", ...served })).toBe(5);
    expect(delta("gateway_call_time_to_first_byte_seconds_count", { endpoint: "chat_completions", ...served })).toBe(5);
    expect(delta("gateway_call_overhead_seconds_count", { endpoint: "chat_completions" })).toBe(5);
    expect(delta("gateway_upstream_attempt_duration_seconds_count", { ...served, outcome: "ok" })).toBe(5);
    expect(delta("gateway_http_requests_total", { route: "/v1/chat/completions", method: "POST", status_class: "2xx" })).toBe(5);
    expect(delta("gateway_http_requests_total", { route: "/v1/chat/completions", method: "POST", status_class: "4xx" })).toBe(1);
    expect(delta("gateway_http_request_duration_seconds_count", { route: "/v1/chat/completions", method: "POST", status_class: "2xx" })).toBe(5);
    // The gateway's own time is a small part of each call's whole time.
    const overheadSum = delta("gateway_call_overhead_seconds_sum", { endpoint: "chat_completions" });
    const durationSum = delta("gateway_call_duration_seconds_sum", { endpoint: "chat_completions", ...served });
    expect(overheadSum).toBeGreaterThanOrEqual(0);
    expect(overheadSum).toBeLessThan(durationSum);

    expect(after).toMatch(/^gateway_usage_queue_depth \d+$/m);
    expect(sample(after, "gateway_snapshot_reloads_total", { reason: "start" })).toBe(1);
    expect(sample(after, "gateway_snapshot_age_seconds")).toBeGreaterThanOrEqual(0);
    // Labels never carry keys, users or free text.
    expect(after).not.toContain(testApiKey);
    expect(after).not.toContain("key_main");
    expect(after).not.toContain("Hello");
  });

  it("counts unknown paths as unmatched and answers /healthz and /readyz", async () => {
    const before = sample(await scrape(), "gateway_http_requests_total", { route: "unmatched", status_class: "4xx" });
    expect((await fetch(`${url}/v1/nowhere/${Math.random()}`)).status).toBe(404);
    const health = await fetch(`${url}/healthz`);
    expect(health.status).toBe(200);
    expect(await health.json()).toEqual({ status: "ok" });
    const ready = await fetch(`${url}/readyz`);
    expect(ready.status).toBe(200);
    expect(await ready.json()).toEqual({ status: "ready", checks: { snapshot: "ok" } });
    const after = await scrape();
    expect(sample(after, "gateway_http_requests_total", { route: "unmatched", status_class: "4xx" }) - before).toBe(1);
    expect(sample(after, "gateway_http_requests_total", { route: "/healthz", status_class: "2xx" })).toBeGreaterThanOrEqual(1);
  });
});

describe("traces after real calls", () => {
  it("exports a call span and a child span per attempt with GenAI attributes, continuing the caller's traceparent, to the organization's collector only", async () => {
    const clientTraceId = "4bf92f3577b34da6a3ce929d0e0e4736";
    const clientSpanId = "00f067aa0ba902b7";
    provider.requests.length = 0;
    const response = await chat({ model: "fallback", stream: true }, { traceparent: `00-${clientTraceId}-${clientSpanId}-01` });
    expect(response.status).toBe(200);
    await response.text();
    const requestId = response.headers.get("x-request-id")!;
    await expect.poll(() => events.some((event) => event.requestId === requestId), { timeout: 3000 }).toBe(true);
    // The export is an HTTP request to the collector: flush until it has arrived (or fail after 3 s).
    const findCallSpan = () => collector.spans.find((span) => span.attributes["gateway.request_id"] === requestId && span.kind === 2);
    await expect.poll(async () => {
      await runtime.tracing!.flush();
      return findCallSpan() !== undefined;
    }, { timeout: 3000 }).toBe(true);
    const callSpan = findCallSpan();
    expect(callSpan).toBeDefined();
    expect(callSpan).toMatchObject({ name: "gateway.chat_completions", traceId: clientTraceId, parentSpanId: clientSpanId, collectorKey: "collector-secret" });
    const event = events.find((candidate) => candidate.requestId === requestId)!;
    expect(callSpan!.attributes).toMatchObject({
      "gen_ai.operation.name": "chat",
      "gen_ai.request.model": "fallback",
      "gen_ai.response.model": "openai/gpt-4o-mini",
      "gen_ai.provider.name": "openai",
      "gen_ai.usage.input_tokens": event.inputTokens,
      "gen_ai.usage.output_tokens": openAiUsage.completion_tokens,
      "gateway.organization_id": "org_1",
      "gateway.project_id": "prj_main",
      "http.response.status_code": 200,
    });
    // The project captures content: the prompt and the streamed answer are on the call span.
    expect(JSON.parse(String(callSpan!.attributes["gen_ai.input.messages"]))).toEqual([{ role: "user", parts: [{ type: "text", content: "Hello" }] }]);
    expect(JSON.parse(String(callSpan!.attributes["gen_ai.output.messages"]))[0].parts[0].content).toBe("Hello from the OpenAI mock.");

    const attempts = collector.spans.filter((span) => span.parentSpanId === callSpan!.spanId).sort((a, b) => Number(a.attributes["gateway.attempt"]) - Number(b.attributes["gateway.attempt"]));
    expect(attempts.map((span) => [span.name, span.kind, span.traceId, span.attributes["gateway.connection"], span.attributes["gateway.attempt_kind"]])).toEqual([
      ["chat gpt-4o-mini", 3, clientTraceId, "broken", "first"],
      ["chat gpt-4o-mini", 3, clientTraceId, "openai-mock", "fallback"],
    ]);
    expect(attempts[0]!.attributes["error.type"]).toBeDefined();
    expect(attempts[1]!.attributes).toMatchObject({
      "gen_ai.request.model": "gpt-4o-mini",
      "gen_ai.provider.name": "openai",
      "gen_ai.usage.output_tokens": openAiUsage.completion_tokens,
      "server.address": "127.0.0.1",
    });
    // Propagation is on: the provider saw the answering attempt's span as its parent.
    const upstream = provider.requests.find((request) => request.path === "/v1/chat/completions")!;
    expect(upstream.headers.traceparent).toBe(`00-${clientTraceId}-${attempts[1]!.spanId}-01`);
    // Another organization's destination receives nothing of this organization.
    expect(collector.spans.every((span) => span.attributes["gateway.organization_id"] === "org_1")).toBe(true);
  });

  it("puts a /v1/responses call's instructions, input items and output items on its span", async () => {
    const response = await fetch(`${url}/v1/responses`, {
      method: "POST",
      headers: { authorization: `Bearer ${testApiKey}`, "content-type": "application/json" },
      body: JSON.stringify({ model: "openai-mock/openai/gpt-4o-mini", instructions: "Be brief.", input: [{ role: "user", content: [{ type: "input_text", text: "Hello" }] }], store: false }),
    });
    expect(response.status).toBe(200);
    await response.json();
    const requestId = response.headers.get("x-request-id")!;
    const findCallSpan = () => collector.spans.find((span) => span.attributes["gateway.request_id"] === requestId && span.kind === 2);
    await expect.poll(async () => {
      await runtime.tracing!.flush();
      return findCallSpan() !== undefined;
    }, { timeout: 3000 }).toBe(true);
    const callSpan = findCallSpan()!;
    expect(JSON.parse(String(callSpan.attributes["gen_ai.input.messages"]))).toEqual([
      { role: "system", parts: [{ type: "text", content: "Be brief." }] },
      { role: "user", parts: [{ type: "text", content: "Hello" }] },
    ]);
    expect(JSON.parse(String(callSpan.attributes["gen_ai.output.messages"]))).toEqual([
      { role: "assistant", parts: [{ type: "text", content: "Hello from the OpenAI mock." }], finish_reason: "completed" },
    ]);
  });

  it("never records a decision's content, even for a project that captures content", async () => {
    const before = collector.spans.length;
    const response = await fetch(`${url}/v1/systemone`, {
      method: "POST",
      headers: { authorization: `Bearer ${testApiKey}`, "content-type": "application/json" },
      body: JSON.stringify({ model: "demo/demo/decider", state: "The order arrived broken.", questions: { complaint: { type: "noul", instructions: "Is this a complaint?" } } }),
    });
    expect(response.status).toBe(200);
    const requestId = response.headers.get("x-request-id")!;
    await expect.poll(() => events.some((event) => event.requestId === requestId), { timeout: 3000 }).toBe(true);
    const findDecision = () => collector.spans.slice(before).find((span) => span.attributes["gateway.request_id"] === requestId);
    await expect.poll(async () => {
      await runtime.tracing!.flush();
      return findDecision() !== undefined;
    }, { timeout: 3000 }).toBe(true);
    const decision = findDecision();
    expect(decision?.attributes["gen_ai.operation.name"]).toBe("chat");
    expect(decision?.attributes["gen_ai.input.messages"]).toBeUndefined();
    expect(decision?.attributes["gen_ai.output.messages"]).toBeUndefined();
  });
});
