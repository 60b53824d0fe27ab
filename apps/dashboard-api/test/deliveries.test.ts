import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { verifyWebhookSignature } from "@gateway/pipeline";
import { closedPortUrl, startLocalHttpServer } from "./support/local-http-server.js";
import { startLocalSmtpServer } from "./support/local-smtp-server.js";
import { startTestDashboard, type TestDashboard } from "./support/test-dashboard.js";

const secret = "whsec_0123456789abcdef";

describe("test actions of telemetry destinations and notification channels", () => {
  let harness: TestDashboard;
  let cookie: string;
  let accepting: Awaited<ReturnType<typeof startLocalHttpServer>>;
  let refusing: Awaited<ReturnType<typeof startLocalHttpServer>>;
  let hanging: Awaited<ReturnType<typeof startLocalHttpServer>>;
  let smtp: Awaited<ReturnType<typeof startLocalSmtpServer>>;
  let closed: string;

  beforeAll(async () => {
    accepting = await startLocalHttpServer();
    refusing = await startLocalHttpServer((_request, response) => {
      response.writeHead(503).end("unavailable");
    });
    hanging = await startLocalHttpServer(() => undefined);
    smtp = await startLocalSmtpServer();
    closed = await closedPortUrl();
    harness = await startTestDashboard({ settings: { deliveryTimeoutMs: 300, smtpUrl: smtp.url } });
    const organizationId = (await harness.createOrganization()).id;
    const owner = await harness.createMember({ organizationId, role: "owner" });
    cookie = await harness.login(owner.email, owner.password);
  });
  afterAll(async () => {
    await harness.close();
    await Promise.all([accepting.close(), refusing.close(), hanging.close(), smtp.close()]);
  });

  const call = (method: string, path: string, body?: unknown) => harness.request(method, path, { cookie, body });
  async function createAndTest(collection: string, body: unknown) {
    const created = await call("POST", `/api/${collection}`, body);
    expect(created.status, created.text).toBe(201);
    const tested = await call("POST", `/api/${collection}/${created.body.id}/test`);
    expect(tested.status, tested.text).toBe(200);
    return { created: created.body, tested: tested.body };
  }

  it("sends an OTLP/HTTP JSON test trace", async () => {
    const { created, tested } = await createAndTest("telemetry-destinations", {
      name: "otlp",
      config: { kind: "otlp_http", endpoint: `${accepting.url}/v1/traces`, headers: { "x-collector-key": "collector-secret" } },
    });
    expect(created).toMatchObject({ kind: "otlp_http", url: `${accepting.url}/v1/traces`, header_names: ["x-collector-key"], object: "telemetry.destination" });
    expect(JSON.stringify(created)).not.toContain("collector-secret");
    expect(tested).toEqual({ reference: expect.stringMatching(/^[0-9a-f]{32}$/), delivered: true, object: "telemetry.destination.test" });
    const request = accepting.received.at(-1)!;
    expect(request).toMatchObject({ method: "POST", path: "/v1/traces" });
    expect(request.headers["content-type"]).toBe("application/json");
    expect(request.headers["x-collector-key"]).toBe("collector-secret");
    const span = JSON.parse(request.body).resourceSpans[0].scopeSpans[0].spans[0];
    expect(span).toMatchObject({ traceId: tested.reference, name: "gateway.telemetry.test", spanId: expect.stringMatching(/^[0-9a-f]{16}$/) });
    expect(BigInt(span.endTimeUnixNano)).toBeGreaterThan(BigInt(span.startTimeUnixNano));
    const fetched = await call("GET", `/api/telemetry-destinations/${created.id}`);
    expect(fetched.body.last_delivery_ok).toBe(true);
  });

  it("sends a signed webhook test event", async () => {
    const { tested } = await createAndTest("telemetry-destinations", { name: "hook", config: { kind: "webhook", url: `${accepting.url}/events`, secret } });
    expect(tested.delivered).toBe(true);
    const request = accepting.received.at(-1)!;
    expect(request.headers["x-gateway-event-id"]).toBe(tested.reference);
    expect(verifyWebhookSignature({ secret, body: request.body, header: String(request.headers["x-gateway-signature"]) })).toBe(true);
    expect(verifyWebhookSignature({ secret: "another-secret-value", body: request.body, header: String(request.headers["x-gateway-signature"]) })).toBe(false);
    expect(JSON.parse(request.body)).toMatchObject({ id: tested.reference, type: "telemetry.test" });
  });

  it("answers delivered:false when the far end refuses, is closed or times out", async () => {
    for (const [name, url] of [
      ["refusing", `${refusing.url}/v1/traces`],
      ["closed", `${closed}/v1/traces`],
      ["hanging", `${hanging.url}/v1/traces`],
    ] as const) {
      const { created, tested } = await createAndTest("telemetry-destinations", { name: `otlp-${name}`, config: { kind: "otlp_http", endpoint: url } });
      expect(tested, name).toMatchObject({ delivered: false, object: "telemetry.destination.test" });
      expect((await call("GET", `/api/telemetry-destinations/${created.id}`)).body.last_delivery_ok).toBe(false);
    }
    const { tested } = await createAndTest("notification-channels", { name: "slow-hook", config: { kind: "webhook", url: `${hanging.url}/hook`, secret } });
    expect(tested).toMatchObject({ delivered: false, object: "notification.test" });
  });

  it("sends test notifications to a webhook, a Slack-compatible webhook and email", async () => {
    const webhook = await createAndTest("notification-channels", { name: "hook", events: ["budget.threshold"], config: { kind: "webhook", url: `${accepting.url}/notify`, secret } });
    expect(webhook.tested).toEqual({ reference: expect.stringMatching(/^evt_/), delivered: true, object: "notification.test" });
    const hookRequest = accepting.received.at(-1)!;
    expect(verifyWebhookSignature({ secret, body: hookRequest.body, header: String(hookRequest.headers["x-gateway-signature"]) })).toBe(true);
    expect(JSON.parse(hookRequest.body)).toMatchObject({ id: webhook.tested.reference, type: "notification.test" });

    const slack = await createAndTest("notification-channels", { name: "slack", config: { kind: "slack", webhook_url: `${accepting.url}/services/T0/B0/secretpart` } });
    expect(slack.tested.delivered).toBe(true);
    expect(slack.created.target).toBe("slack incoming webhook");
    expect(JSON.stringify(slack.created)).not.toContain("secretpart");
    const slackRequest = accepting.received.at(-1)!;
    expect(slackRequest.path).toBe("/services/T0/B0/secretpart");
    expect(JSON.parse(slackRequest.body).text).toMatch(/Test notification/);

    const email = await createAndTest("notification-channels", { name: "mail", config: { kind: "email", recipients: ["ops@example.com"] } });
    expect(email.tested.delivered).toBe(true);
    expect(smtp.received.at(-1)!.to).toEqual(["ops@example.com"]);
    expect(smtp.received.at(-1)!.raw).toContain(email.tested.reference);

    const refused = await createAndTest("notification-channels", { name: "slack-down", config: { kind: "slack", webhook_url: `${refusing.url}/services/x` } });
    expect(refused.tested.delivered).toBe(false);
  });

  it("validates destination configurations", async () => {
    expect((await call("POST", "/api/telemetry-destinations", { name: "plain", config: { kind: "webhook", url: "http://collector.example.com/x", secret } })).status).toBe(400);
    expect((await call("POST", "/api/telemetry-destinations", { name: "short", config: { kind: "webhook", url: "https://collector.example.com/x", secret: "short" } })).status).toBe(400);
    expect((await call("POST", "/api/notification-channels", { name: "nobody", config: { kind: "email", recipients: [] } })).status).toBe(400);
  });
});
