import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { UsageEventRecord } from "@gateway/contracts";
import { type DeliveryTargets, createDeliveryDispatcher } from "./create-delivery-dispatcher.js";
import { createBudgetThresholdEvent } from "./limit-notification-events.js";
import { verifyWebhookSignature } from "./sign-webhook-payload.js";

interface Received {
  path: string;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

/** A local collector: answers each request with the next planned status (then 200). */
async function startCollector() {
  const received: Received[] = [];
  const planned: number[] = [];
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on("data", (chunk: Buffer) => chunks.push(chunk));
    request.on("end", () => {
      received.push({ path: request.url ?? "/", headers: request.headers, body: Buffer.concat(chunks).toString("utf8") });
      response.writeHead(planned.shift() ?? 200).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    received,
    planned,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

function usageEvent(overrides: Partial<UsageEventRecord> = {}): UsageEventRecord {
  return {
    requestId: `req_${Math.random().toString(36).slice(2)}`,
    traceId: null,
    occurredAt: new Date("2026-11-22T10:00:00Z"),
    organizationId: "org_1",
    projectId: "proj_1",
    apiKeyId: "key_1",
    userId: null,
    endpoint: "chat_completions",
    requestedModel: "fast",
    routeId: "route_1",
    provider: "openai-main",
    model: "openai/gpt-4o-mini",
    status: 200,
    errorCode: null,
    inputTokens: 120,
    outputTokens: 30,
    cacheReadTokens: 64,
    cacheWriteTokens: 0,
    reasoningTokens: 0,
    costMicros: 42,
    budgetOutcome: "reserved",
    latencyMs: 250,
    timeToFirstByteMs: 80,
    clientLabel: "openai-node/6.1.0",
    sessionId: "session-9",
    guardrailFlags: ["pii_email"],
    content: { secret: "never exported" },
    ...overrides,
  };
}

const secret = "whsec_0123456789abcdef";
let collector: Awaited<ReturnType<typeof startCollector>>;
beforeAll(async () => {
  collector = await startCollector();
});
afterAll(async () => {
  await collector.close();
});

describe("createDeliveryDispatcher", () => {
  it("exports usage as OTLP/HTTP JSON spans, batched per destination, only to the event's organization", async () => {
    collector.received.length = 0;
    const targets: DeliveryTargets = {
      telemetryDestinations: [
        { id: "dst_1", organizationId: "org_1", name: "otlp", config: { kind: "otlp_http", endpoint: `${collector.url}/v1/traces`, headers: { "x-api-key": "k" } } },
        { id: "dst_2", organizationId: "org_2", name: "other", config: { kind: "otlp_http", endpoint: `${collector.url}/other/v1/traces` } },
      ],
      notificationChannels: [],
    };
    const dispatcher = createDeliveryDispatcher({ targets: () => targets, batchSize: 2, flushIntervalMs: 60_000 });
    for (let index = 0; index < 3; index += 1) dispatcher.enqueueUsage(usageEvent());
    dispatcher.enqueueUsage(usageEvent({ organizationId: "org_3" })); // no destination: not queued
    await dispatcher.flush();
    expect(collector.received.map((request) => request.path)).toEqual(["/v1/traces", "/v1/traces"]);
    expect(collector.received[0]!.headers["x-api-key"]).toBe("k");
    const spans = collector.received.flatMap((request) => JSON.parse(request.body).resourceSpans[0].scopeSpans[0].spans);
    expect(spans).toHaveLength(3);
    const attributes = Object.fromEntries(spans[0].attributes.map((entry: { key: string; value: Record<string, unknown> }) => [entry.key, Object.values(entry.value)[0]]));
    expect(attributes).toMatchObject({
      "gateway.organization_id": "org_1",
      "gateway.project_id": "proj_1",
      "gateway.api_key_id": "key_1",
      "gateway.route_id": "route_1",
      "gen_ai.system": "openai-main",
      "gen_ai.response.model": "openai/gpt-4o-mini",
      "gen_ai.usage.input_tokens": "120",
      "gateway.usage.cache_read_tokens": "64",
      "gateway.cost_micros": "42",
      "gateway.budget_outcome": "reserved",
      "gateway.client": "openai-node/6.1.0",
      "gateway.session_id": "session-9",
    });
    expect(collector.received.some((request) => request.body.includes("never exported"))).toBe(false);
    expect(dispatcher.stats()).toMatchObject({ delivered: 2, failed: 0, queuedSpans: 0 });
    await dispatcher.close();
  });

  it("retries a refused delivery with backoff and reports it delivered", async () => {
    collector.received.length = 0;
    collector.planned.push(503, 500);
    const reports: unknown[] = [];
    const dispatcher = createDeliveryDispatcher({
      targets: () => ({
        telemetryDestinations: [{ id: "dst_1", organizationId: "org_1", name: "otlp", config: { kind: "otlp_http", endpoint: `${collector.url}/v1/traces` } }],
        notificationChannels: [],
      }),
      flushIntervalMs: 5,
      retryBaseMs: 5,
      onReport: (report) => reports.push(report),
    });
    dispatcher.enqueueUsage(usageEvent());
    await expect.poll(() => reports, { timeout: 3000, interval: 10 }).toHaveLength(1);
    expect(reports[0]).toMatchObject({ kind: "telemetry", targetId: "dst_1", delivered: true, attempts: 3, items: 1 });
    expect(collector.received).toHaveLength(3);
    await dispatcher.close();
  });

  it("gives up after maxAttempts and counts the failure", async () => {
    collector.planned.push(500, 500);
    const dispatcher = createDeliveryDispatcher({
      targets: () => ({
        telemetryDestinations: [{ id: "dst_1", organizationId: "org_1", name: "otlp", config: { kind: "otlp_http", endpoint: `${collector.url}/v1/traces` } }],
        notificationChannels: [],
      }),
      flushIntervalMs: 5,
      retryBaseMs: 5,
      maxAttempts: 2,
    });
    dispatcher.enqueueUsage(usageEvent());
    await expect.poll(() => dispatcher.stats().failed, { timeout: 3000, interval: 10 }).toBe(1);
    expect(dispatcher.stats().delivered).toBe(0);
    await dispatcher.close();
  });

  it("sends signed notifications to the organization's channels that want the event type", async () => {
    collector.received.length = 0;
    const dispatcher = createDeliveryDispatcher({
      targets: () => ({
        telemetryDestinations: [],
        notificationChannels: [
          { id: "ch_all", organizationId: "org_1", name: "all", events: [], config: { kind: "webhook", url: `${collector.url}/all`, secret } },
          { id: "ch_limits", organizationId: "org_1", name: "limits", events: ["rate_limit.exceeded"], config: { kind: "webhook", url: `${collector.url}/limits`, secret } },
          { id: "ch_slack", organizationId: "org_1", name: "slack", events: ["budget.threshold"], config: { kind: "slack", webhook_url: `${collector.url}/slack` } },
          { id: "ch_other", organizationId: "org_2", name: "other", events: [], config: { kind: "webhook", url: `${collector.url}/other`, secret } },
        ],
      }),
      flushIntervalMs: 60_000,
    });
    const event = createBudgetThresholdEvent({
      budgetId: "bud_1",
      budgetName: "monthly",
      scope: "project",
      scopeId: "proj_1",
      mode: "soft",
      period: "month",
      periodKey: "2026-11",
      threshold: 0.8,
      thresholdMicros: 80_000_000,
      amountMicros: 100_000_000,
      spentMicros: 80_000_100,
    });
    dispatcher.notify("org_1", event);
    await dispatcher.flush();
    expect(collector.received.map((request) => request.path).sort()).toEqual(["/all", "/slack"]);
    const webhook = collector.received.find((request) => request.path === "/all")!;
    expect(webhook.headers["x-gateway-event-id"]).toBe(event.id);
    expect(verifyWebhookSignature({ secret, body: webhook.body, header: String(webhook.headers["x-gateway-signature"]), now: Math.floor(event.createdAt.getTime() / 1000) })).toBe(true);
    expect(JSON.parse(webhook.body)).toMatchObject({ type: "budget.threshold", data: { budget_id: "bud_1", threshold: 0.8, period_key: "2026-11" } });
    expect(JSON.parse(collector.received.find((request) => request.path === "/slack")!.body).text).toContain("80%");
    await dispatcher.close();
  });

  it("keeps its queue bounded: the oldest spans are dropped and counted, enqueue never waits", async () => {
    collector.received.length = 0;
    const dropped: number[] = [];
    const dispatcher = createDeliveryDispatcher({
      targets: () => ({
        telemetryDestinations: [{ id: "dst_1", organizationId: "org_1", name: "otlp", config: { kind: "otlp_http", endpoint: `${collector.url}/v1/traces` } }],
        notificationChannels: [],
      }),
      maxQueuedSpans: 5,
      batchSize: 100,
      flushIntervalMs: 60_000,
      onDropped: (_kind, count) => dropped.push(count),
    });
    const requestIds: string[] = [];
    for (let index = 0; index < 8; index += 1) {
      const event = usageEvent();
      requestIds.push(event.requestId);
      dispatcher.enqueueUsage(event);
    }
    expect(dispatcher.stats()).toMatchObject({ queuedSpans: 5, droppedSpans: 3 });
    expect(dropped.reduce((sum, count) => sum + count, 0)).toBe(3);
    await dispatcher.flush();
    const exported = JSON.parse(collector.received[0]!.body).resourceSpans[0].scopeSpans[0].spans.map(
      (span: { attributes: { key: string; value: { stringValue?: string } }[] }) =>
        span.attributes.find((attribute) => attribute.key === "gateway.request_id")!.value.stringValue,
    );
    expect(exported).toEqual(requestIds.slice(3));
    await dispatcher.close();
  });

  it("a destination that does not answer never holds up the others", async () => {
    collector.received.length = 0;
    const hanging = createServer(() => undefined);
    await new Promise<void>((resolve) => hanging.listen(0, "127.0.0.1", resolve));
    const hangingUrl = `http://127.0.0.1:${(hanging.address() as AddressInfo).port}`;
    const dispatcher = createDeliveryDispatcher({
      targets: () => ({
        telemetryDestinations: [
          { id: "dst_hang", organizationId: "org_1", name: "hang", config: { kind: "otlp_http", endpoint: `${hangingUrl}/v1/traces` } },
          { id: "dst_ok", organizationId: "org_1", name: "ok", config: { kind: "otlp_http", endpoint: `${collector.url}/v1/traces` } },
        ],
        notificationChannels: [],
      }),
      flushIntervalMs: 5,
      timeoutMs: 5000,
    });
    dispatcher.enqueueUsage(usageEvent());
    await expect.poll(() => collector.received.length, { timeout: 2000, interval: 10 }).toBe(1);
    await expect.poll(() => dispatcher.stats().pendingDeliveries, { timeout: 2000, interval: 10 }).toBe(1);
    expect(dispatcher.stats().delivered).toBe(1);
    hanging.closeAllConnections();
    hanging.close();
    await dispatcher.close({ timeoutMs: 500 });
  });
});
