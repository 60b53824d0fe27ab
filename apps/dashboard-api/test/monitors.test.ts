import { randomBytes } from "node:crypto";
import { generateApiKey, getOrganizationBySlug, openDataPlaneDatabase } from "@gateway/db";
import { applyGatewayConfig, parseGatewayConfig, readGatewaySettings, serveGateway, type RunningGateway } from "@gateway/gateway";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { createSilentLogger } from "../src/dashboard-logger.js";
import { createMonitorEvaluator, type MonitorEvaluator } from "../src/monitors/create-monitor-evaluator.js";
import { startLocalHttpServer } from "./support/local-http-server.js";
import { startLocalSmtpServer } from "./support/local-smtp-server.js";
import { databaseTargets } from "./support/test-database.js";
import { startTestDashboard, type TestDashboard } from "./support/test-dashboard.js";
import { waitFor } from "./support/wait-for.js";
import { startFixedUsageProvider, type FixedUsageProvider } from "./support/fixed-usage-provider.js";

const silentGatewayLogger = { info: () => undefined, error: () => undefined };

for (const target of databaseTargets) {
  describe(`monitors (${target})`, () => {
    const runId = randomBytes(6).toString("hex");
    const secret = generateApiKey().secret;
    let provider: FixedUsageProvider;
    let webhook: Awaited<ReturnType<typeof startLocalHttpServer>>;
    let smtp: Awaited<ReturnType<typeof startLocalSmtpServer>>;
    let harness: TestDashboard;
    let gateway: RunningGateway;
    let owner: string;
    let viewer: string;
    let organizationId: string;
    let webhookChannelId: string;
    let emailChannelId: string;
    const evaluators: MonitorEvaluator[] = [];
    // The evaluators' clock: a minute ahead, so the current minute's calls are inside the window (it ends at a whole minute).
    let clockOffsetMs = 60_000;
    const clock = () => new Date(Date.now() + clockOffsetMs);

    /** The organization (a project with the caller's key, a connection to the provider) and the given monitors, from the configuration file. */
    const applyConfig = (monitors: unknown[]) =>
      applyGatewayConfig(
        parseGatewayConfig(
          JSON.stringify({
            version: 1,
            organizations: [
              {
                slug: `monitors-${runId}`,
                name: "Monitors",
                projects: [{ name: "Main", apiKeys: [{ name: "caller", secret: "env:MONITOR_KEY" }] }],
                connections: [{ name: "fake", kind: "openai", baseUrl: provider.url, credential: "sk-fake-credential", models: ["openai/fixed"] }],
                monitors,
              },
            ],
          }),
          "monitors.json",
        ),
        { db: harness.database, secretBox: harness.secretBox, env: { MONITOR_KEY: secret } },
      );

    const evaluator = (holder: string) => {
      const created = createMonitorEvaluator({
        database: harness.database,
        secretBox: harness.secretBox,
        mailer: harness.dashboard.services.mailer,
        logger: createSilentLogger(),
        intervalMs: 60_000,
        leaseMs: 30_000,
        deliveryTimeoutMs: 2_000,
        publicUrl: "http://dashboard.test",
        holder,
        now: clock,
      });
      evaluators.push(created);
      return created;
    };

    beforeAll(async () => {
      provider = await startFixedUsageProvider();
      webhook = await startLocalHttpServer();
      smtp = await startLocalSmtpServer();
      harness = await startTestDashboard({ target, settings: { smtpUrl: smtp.url, deliveryTimeoutMs: 2_000 } });
      await applyConfig([]);
      organizationId = (await getOrganizationBySlug(harness.database, `monitors-${runId}`))!.id;
      const ownerAccount = await harness.createMember({ organizationId, role: "owner" });
      owner = await harness.login(ownerAccount.email, ownerAccount.password);
      const viewerAccount = await harness.createMember({ organizationId, role: "viewer" });
      viewer = await harness.login(viewerAccount.email, viewerAccount.password);
      const webhookChannel = await harness.request("POST", "/api/notification-channels", {
        cookie: owner,
        body: { name: "hook", config: { kind: "webhook", url: `${webhook.url}/alerts`, secret: "whsec_0123456789abcdef" } },
      });
      expect(webhookChannel.status, webhookChannel.text).toBe(201);
      webhookChannelId = webhookChannel.body.id;
      const emailChannel = await harness.request("POST", "/api/notification-channels", {
        cookie: owner,
        body: { name: "mail", config: { kind: "email", recipients: ["oncall@example.com"] } },
      });
      expect(emailChannel.status, emailChannel.text).toBe(201);
      emailChannelId = emailChannel.body.id;
      gateway = await serveGateway(
        openDataPlaneDatabase({ url: harness.databaseUrl }),
        harness.secretBox,
        readGatewaySettings({ DATABASE_URL: harness.databaseUrl, GATEWAY_PORT: "0", GATEWAY_HOST: "127.0.0.1", GATEWAY_USAGE_FLUSH_MS: "20" }),
        silentGatewayLogger,
      );
    }, 60_000);

    // A failed test must not leave its evaluator holding the lease for the next one.
    afterEach(async () => {
      await Promise.all(evaluators.splice(0).map((each) => each.stop()));
    });

    afterAll(async () => {
      await gateway?.close();
      await harness?.close();
      await Promise.all([webhook?.close(), smtp?.close(), new Promise<void>((resolve) => provider?.server.close(() => resolve()))]);
    }, 30_000);

    let answered = 0;
    async function chat(count: number) {
      for (let index = 0; index < count; index += 1) {
        const response = await fetch(`${gateway.url}/v1/chat/completions`, {
          method: "POST",
          headers: { authorization: `Bearer ${secret}`, "content-type": "application/json" },
          body: JSON.stringify({ model: "fake/openai/fixed", max_tokens: 10, messages: [{ role: "user", content: "hi" }] }),
        });
        await response.arrayBuffer();
        answered += 1;
      }
      // Every answered call is in the monitors' rollup before an evaluation (the writer flushes every 20 ms).
      await waitFor(
        "the calls in the monitors' rollup",
        () => harness.database.prisma.usageMonitorRollup.aggregate({ where: { organizationId, bucketMinutes: 1 }, _sum: { requestCount: true } }),
        (sums) => Number(sums._sum.requestCount ?? 0) === answered,
      );
    }
    const webhookMessages = () => webhook.received.filter((request) => request.path === "/alerts").map((request) => JSON.parse(request.body) as { type: string; data: Record<string, unknown>; text: string });

    it("validates rules and keeps them per role", async () => {
      const bad = await harness.request("POST", "/api/monitors", {
        cookie: owner,
        body: { name: "bad", metric: "error_rate", scope: { kind: "project", value: "nope" }, window_minutes: 5, comparator: "gt", threshold: 1 },
      });
      expect(bad.status).toBe(400);
      expect(bad.body.error).toMatchObject({ code: "invalid_request", message: "No project nope in this organization." });
      const tooShort = await harness.request("POST", "/api/monitors", {
        cookie: owner,
        body: { name: "bad", metric: "requests", scope: { kind: "organization", value: null }, window_minutes: 1, comparator: "gt", threshold: 1 },
      });
      expect(tooShort.status).toBe(400);
      const denied = await harness.request("POST", "/api/monitors", {
        cookie: viewer,
        body: { name: "viewer's", metric: "requests", scope: { kind: "organization", value: null }, window_minutes: 5, comparator: "gt", threshold: 1 },
      });
      expect(denied.status).toBe(403);
      const listed = await harness.request("GET", "/api/monitors", { cookie: viewer });
      expect(listed.status).toBe(200);
    }, 30_000);

    it("declares monitors in the configuration file, idempotently, with channels and scopes by name", async () => {
      const declared = [
        { name: "main spend", metric: "spend_micros", scope: "project", project: "Main", windowMinutes: 60, comparator: "gt", threshold: 5_000_000, channels: ["hook"] },
        { name: "slow connections", metric: "latency_p95_ms", scope: "connection", each: true, windowMinutes: 15, comparator: "gt", threshold: 8000, minCalls: 10 },
      ];
      const apply = applyConfig;
      await apply(declared);
      const listed = await harness.request("GET", "/api/monitors", { cookie: owner });
      const byName = new Map<string, any>(listed.body.data.map((monitor: { name: string }) => [monitor.name, monitor]));
      expect(byName.get("main spend")).toMatchObject({ scope: { kind: "project", value: expect.any(String) }, channel_ids: [webhookChannelId], window_minutes: 60 });
      expect(byName.get("slow connections")).toMatchObject({ scope: { kind: "connection", value: null }, min_calls: 10, channel_ids: [] });
      await apply(declared);
      const again = await harness.request("GET", "/api/monitors", { cookie: owner });
      expect(again.body.data.map((monitor: { updated_at: string }) => monitor.updated_at)).toEqual(listed.body.data.map((monitor: { updated_at: string }) => monitor.updated_at));
      await expect(apply([{ ...declared[0], channels: ["nope"] }])).rejects.toThrow(/monitors\[0\]\.channels\[0\]: no notification channel named 'nope'/);
      for (const monitor of again.body.data) await harness.request("DELETE", `/api/monitors/${monitor.id}`, { cookie: owner });
    }, 30_000);

    it("fires once through a real SMTP server and a webhook, and resolves once after recovery", async () => {
      const created = await harness.request("POST", "/api/monitors", {
        cookie: owner,
        body: {
          name: "provider errors",
          metric: "error_rate",
          scope: { kind: "organization", value: null },
          window_minutes: 5,
          comparator: "gt",
          threshold: 0.5,
          min_calls: 3,
          severity: "critical",
          channel_ids: [webhookChannelId, emailChannelId],
        },
      });
      expect(created.status, created.text).toBe(201);
      const monitorId = created.body.id as string;
      const first = evaluator("first");

      provider.failing = true;
      await chat(4);
      // First evaluation period: the rule fires, one message per channel.
      await first.tick();
      expect(webhookMessages().map((message) => message.type)).toEqual(["monitor.fired"]);
      expect(smtp.received).toHaveLength(1);
      const fired = webhookMessages()[0]!;
      expect(fired.data).toMatchObject({ monitor_id: monitorId, kind: "fired", value: 1, threshold: 0.5, window_minutes: 5, calls: 4, severity: "critical" });
      expect(String(fired.data.activity_url)).toMatch(/^http:\/\/dashboard\.test\/activity\?from=/);
      expect(smtp.received[0]!.raw).toContain("error rate is 1 over the last 5 minutes");
      expect(webhook.received[0]!.headers["x-gateway-signature"]).toBeTruthy();
      const firing = await harness.request("GET", `/api/monitors/${monitorId}`, { cookie: viewer });
      expect(firing.body).toMatchObject({ status: "firing", states: [{ scope_value: null, status: "firing", value: 1, calls: 4 }] });

      // Still failing: more evaluations record nothing new and send nothing.
      await first.tick();
      await first.tick();
      expect(webhookMessages()).toHaveLength(1);
      expect(smtp.received).toHaveLength(1);

      provider.failing = false;
      await chat(8);
      await first.tick();
      expect(webhookMessages().map((message) => message.type)).toEqual(["monitor.fired", "monitor.resolved"]);
      expect(smtp.received).toHaveLength(2);
      await first.tick();
      expect(webhookMessages()).toHaveLength(2);
      expect(smtp.received).toHaveLength(2);

      const events = await harness.request("GET", `/api/monitors/${monitorId}/events`, { cookie: viewer });
      expect(events.status).toBe(200);
      expect(events.body.data.map((event: { kind: string }) => event.kind)).toEqual(["resolved", "fired"]);
      for (const event of events.body.data) {
        expect(event.deliveries).toEqual([
          expect.objectContaining({ channel_id: webhookChannelId, channel_name: "hook", status: "delivered", error: null }),
          expect.objectContaining({ channel_id: emailChannelId, channel_name: "mail", status: "delivered", error: null }),
        ]);
      }
      const series = await harness.request("GET", `/api/monitors/${monitorId}/series?points=5`, { cookie: viewer });
      expect(series.status, series.text).toBe(200);
      expect(series.body.points).toHaveLength(5);
      expect(series.body.points.at(-1)).toMatchObject({ calls: 12, value: 4 / 12 });
      await harness.request("DELETE", `/api/monitors/${monitorId}`, { cookie: owner });
    }, 60_000);

    it("records a failed delivery on the event and schedules its retry", async () => {
      const refusing = await startLocalHttpServer((_request, response) => response.writeHead(503).end("down"));
      try {
        const channel = await harness.request("POST", "/api/notification-channels", {
          cookie: owner,
          body: { name: "refusing", config: { kind: "webhook", url: `${refusing.url}/alerts`, secret: "whsec_0123456789abcdef" } },
        });
        const created = await harness.request("POST", "/api/monitors", {
          cookie: owner,
          body: { name: "any traffic", metric: "requests", scope: { kind: "connection", value: null }, window_minutes: 5, comparator: "gt", threshold: 0, channel_ids: [channel.body.id] },
        });
        expect(created.status, created.text).toBe(201);
        const checker = evaluator("failing-delivery");
        await chat(1);
        await checker.tick();
        const events = await harness.request("GET", `/api/monitors/${created.body.id}/events`, { cookie: owner });
        expect(events.body.data).toHaveLength(1);
        expect(events.body.data[0]).toMatchObject({ kind: "fired", scope_value: expect.any(String) });
        // Failed once: shown with why, and retried later (see monitor-delivery-retries.test.ts).
        expect(events.body.data[0].deliveries).toEqual([
          expect.objectContaining({ channel_name: "refusing", status: "pending", error: expect.stringContaining("503"), next_attempt_at: expect.any(String), attempts: [expect.objectContaining({ outcome: "failed" })] }),
        ]);
        await harness.request("DELETE", `/api/monitors/${created.body.id}`, { cookie: owner });
      } finally {
        await refusing.close();
      }
    }, 60_000);

    it("hands the lease over without losing or repeating a notification", async () => {
      const created = await harness.request("POST", "/api/monitors", {
        cookie: owner,
        body: { name: "lease", metric: "error_rate", scope: { kind: "organization", value: null }, window_minutes: 5, comparator: "gt", threshold: 0.5, channel_ids: [webhookChannelId] },
      });
      expect(created.status, created.text).toBe(201);
      const before = webhookMessages().length;
      const a = evaluator("holder-a");
      const b = evaluator("holder-b");
      // Both evaluate concurrently, repeatedly: one holds the lease, the other waits.
      const rounds = await Promise.all([a.tick(), b.tick()]);
      expect(rounds.filter((round) => round.leader)).toHaveLength(1);
      const leader = rounds[0]!.leader ? a : b;
      const follower = leader === a ? b : a;

      provider.failing = true;
      await chat(40);
      const racing = await Promise.all([leader.tick(), follower.tick(), leader.tick(), follower.tick()]);
      expect(racing.filter((round) => round.leader).length).toBeGreaterThan(0);
      expect(racing.filter((round) => !round.leader).length).toBe(2);
      expect(webhookMessages().slice(before).map((message) => message.type)).toEqual(["monitor.fired"]);

      // The leader dies without giving the lease up; once it expires the follower takes over, and finds the rule already firing.
      clockOffsetMs += 31_000;
      const takeover = await follower.tick();
      expect(takeover.leader).toBe(true);
      expect(takeover.evaluation?.events).toBe(0);
      // The old leader wakes up: it holds no lease any more and records nothing.
      expect((await leader.tick()).leader).toBe(false);
      provider.failing = false;
      await chat(60);
      await follower.tick();
      await follower.tick();
      expect(webhookMessages().slice(before).map((message) => message.type)).toEqual(["monitor.fired", "monitor.resolved"]);
      const events = await harness.request("GET", `/api/monitors/${created.body.id}/events`, { cookie: owner });
      expect(events.body.data.map((event: { kind: string }) => event.kind)).toEqual(["resolved", "fired"]);
    }, 60_000);
  });
}
