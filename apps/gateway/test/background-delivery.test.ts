import type { ControlPlaneSnapshot, UsageEventRecord } from "@gateway/contracts";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { type DeliveryTargets, verifyWebhookSignature } from "@gateway/pipeline";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type GatewayRuntime, createGatewayRuntime } from "../src/create-gateway-runtime.js";
import { createGatewayTestSnapshot, otherProjectApiKey, testApiKey } from "./support/create-gateway-test-snapshot.js";
import { type MockProvider, startMockProvider, systemOneHandler } from "./support/mock-provider.js";
import { decisionBody, postDecision } from "./support/post-decision.js";

const secret = "whsec_background_0123456789";

/** A local OTLP collector and webhook receiver. */
async function startReceiver() {
  const received: { path: string; headers: Record<string, string | string[] | undefined>; body: string }[] = [];
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on("data", (chunk: Buffer) => chunks.push(chunk));
    request.on("end", () => {
      received.push({ path: request.url ?? "/", headers: request.headers, body: Buffer.concat(chunks).toString("utf8") });
      response.writeHead(200).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    received,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

let native: MockProvider;
let receiver: Awaited<ReturnType<typeof startReceiver>>;
let runtime: GatewayRuntime;
let url: string;
let closeServer: () => Promise<void>;
const events: UsageEventRecord[] = [];
const reports: unknown[] = [];

beforeAll(async () => {
  native = await startMockProvider(systemOneHandler());
  receiver = await startReceiver();
  const base = createGatewayTestSnapshot({ systemone: native.baseUrl });
  const snapshot: ControlPlaneSnapshot = {
    ...base,
    // 30 input + 3 output tokens at $1000 per million tokens: 33 000 micro-USD per decision.
    connections: base.connections.map((connection) =>
      connection.name === "native" ? { ...connection, prices: { "systemone/s1": { input: 1000, output: 1000 } } } : connection,
    ),
    budgets: [
      { id: "bud_soft", organizationId: "org_1", name: "project soft", scope: "project", scopeId: "prj_main", amountMicros: 100_000, period: "month", mode: "soft", thresholds: [0.5, 1] },
    ],
    rateLimits: [
      { id: "lim_other", organizationId: "org_1", scope: "key", scopeId: "key_other", windowSeconds: 60, requestsPerWindow: 1, tokensPerWindow: null, concurrency: null },
    ],
  };
  const targets: DeliveryTargets = {
    telemetryDestinations: [{ id: "dst_otlp", organizationId: "org_1", name: "collector", config: { kind: "otlp_http", endpoint: `${receiver.url}/v1/traces`, headers: {} } }],
    notificationChannels: [
      { id: "ch_hook", organizationId: "org_1", name: "ops", events: [], config: { kind: "webhook", url: `${receiver.url}/hooks`, secret } },
      { id: "ch_elsewhere", organizationId: "org_2", name: "not ours", events: [], config: { kind: "webhook", url: `${receiver.url}/elsewhere`, secret } },
    ],
  };
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
      deliveryFlushMs: 20,
    },
    onDeliveryReport: (report) => reports.push(report),
  });
  const server = createServer(runtime.handler).listen(0, "127.0.0.1");
  await new Promise<void>((resolve) => server.once("listening", () => resolve()));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  closeServer = () => {
    server.closeAllConnections();
    return new Promise<void>((resolve) => server.close(() => resolve()));
  };
});

afterAll(async () => {
  await closeServer?.();
  await runtime?.close({ timeoutMs: 2000 });
  await Promise.all([native?.close(), receiver?.close()]);
});

const hooks = () =>
  receiver.received.filter((request) => request.path === "/hooks").map((request) => ({ ...request, json: JSON.parse(request.body) }));

describe("background delivery of traces and notifications", () => {
  it("notifies each soft-budget threshold once per period and marks the crossing calls' usage events", async () => {
    const requestIds: string[] = [];
    for (let call = 0; call < 5; call += 1) {
      const response = await postDecision(url, { apiKey: testApiKey, body: decisionBody("native/systemone/s1") });
      expect(response.status).toBe(200);
      requestIds.push(response.requestId);
    }
    await expect.poll(() => hooks().filter((hook) => hook.json.type === "budget.threshold").length, { timeout: 3000, interval: 20 }).toBe(2);
    await new Promise((resolve) => setTimeout(resolve, 100));
    const thresholds = hooks().filter((hook) => hook.json.type === "budget.threshold");
    expect(thresholds.map((hook) => hook.json.data.threshold).sort()).toEqual([0.5, 1]);
    for (const hook of thresholds) {
      expect(hook.json.data).toMatchObject({ budget_id: "bud_soft", scope: "project", scope_id: "prj_main", amount_micros: 100_000 });
      expect(verifyWebhookSignature({ secret, body: hook.body, header: String(hook.headers["x-gateway-signature"]) })).toBe(true);
    }
    expect(receiver.received.some((request) => request.path === "/elsewhere")).toBe(false);

    await expect.poll(() => requestIds.every((id) => events.some((event) => event.requestId === id)), { timeout: 3000, interval: 20 }).toBe(true);
    const outcomes = requestIds.map((id) => events.find((event) => event.requestId === id)!);
    expect(outcomes.map((event) => event.costMicros)).toEqual([33_000, 33_000, 33_000, 33_000, 33_000]);
    // Spend after each call: 33k, 66k (>= 50%), 99k, 132k (>= 100%), 165k.
    expect(outcomes.map((event) => event.budgetOutcome)).toEqual([null, "soft_threshold", null, "soft_threshold", null]);
  });

  it("notifies a full rate limit once, however many calls it refuses", async () => {
    const statuses: number[] = [];
    for (let call = 0; call < 4; call += 1) {
      statuses.push((await postDecision(url, { apiKey: otherProjectApiKey, body: decisionBody("native/systemone/s1") })).status);
    }
    expect(statuses).toEqual([200, 429, 429, 429]);
    await expect.poll(() => hooks().filter((hook) => hook.json.type === "rate_limit.exceeded").length, { timeout: 3000, interval: 20 }).toBe(1);
    await new Promise((resolve) => setTimeout(resolve, 100));
    const limits = hooks().filter((hook) => hook.json.type === "rate_limit.exceeded");
    expect(limits).toHaveLength(1);
    expect(limits[0]!.json.data).toMatchObject({ limit_id: "lim_other", scope: "key", kind: "requests" });
  });

  it("exports one OTLP call span per call with its attribution (SDK spans), in batches, and reports the deliveries", async () => {
    await runtime.delivery.flush();
    await runtime.tracing!.flush();
    const spans = receiver.received
      .filter((request) => request.path === "/v1/traces")
      .flatMap((request) => JSON.parse(request.body).resourceSpans[0].scopeSpans[0].spans as { name: string; attributes: { key: string; value: Record<string, unknown> }[] }[]);
    const byRequest = new Map(
      spans.map((span) => {
        const attributes = Object.fromEntries(span.attributes.map((entry) => [entry.key, Object.values(entry.value)[0]]));
        return [attributes["gateway.request_id"], { name: span.name, attributes }] as const;
      }).filter(([, span]) => span.name.startsWith("gateway.")),
    );
    const decisionEvents = events.filter((event) => event.endpoint === "decisions");
    expect(decisionEvents).toHaveLength(9);
    for (const event of decisionEvents) {
      const span = byRequest.get(event.requestId);
      expect(span, event.requestId).toBeDefined();
      expect(span!.name).toBe("gateway.decisions");
      expect(span!.attributes).toMatchObject({
        "gateway.organization_id": "org_1",
        "gateway.project_id": event.projectId,
        "gateway.api_key_id": event.apiKeyId,
        "http.response.status_code": event.status,
        "gateway.cost_micros": event.costMicros,
      });
    }
    expect(reports.length).toBeGreaterThan(0);
    expect(reports.every((report) => (report as { delivered: boolean }).delivered)).toBe(true);
    expect(runtime.delivery.stats()).toMatchObject({ droppedSpans: 0, failed: 0 });
  });
});
