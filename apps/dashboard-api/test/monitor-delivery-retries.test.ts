import type { ServerResponse } from "node:http";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { createSilentLogger } from "../src/dashboard-logger.js";
import { createMonitorEvaluator, type MonitorEvaluator } from "../src/monitors/create-monitor-evaluator.js";
import { startLocalHttpServer } from "./support/local-http-server.js";
import { startLocalSmtpServer } from "./support/local-smtp-server.js";
import { recordMonitorCalls } from "./support/monitor-traffic.js";
import { databaseTargets } from "./support/test-database.js";
import { startTestDashboard, type TestDashboard } from "./support/test-dashboard.js";

for (const target of databaseTargets) {
  describe(`monitor delivery retries (${target})`, () => {
    let harness: TestDashboard;
    let smtp: Awaited<ReturnType<typeof startLocalSmtpServer>>;
    let owner: string;
    let organizationId: string;
    const evaluators: MonitorEvaluator[] = [];
    // The evaluators' clock: moved forward past each retry time.
    let offsetMs = 0;
    const clock = () => new Date(Date.now() + offsetMs);

    beforeAll(async () => {
      smtp = await startLocalSmtpServer();
      harness = await startTestDashboard({ target, settings: { smtpUrl: smtp.url } });
      organizationId = (await harness.createOrganization()).id;
      const account = await harness.createMember({ organizationId, role: "owner" });
      owner = await harness.login(account.email, account.password);
    }, 60_000);

    afterEach(async () => {
      await Promise.all(evaluators.splice(0).map((each) => each.stop()));
    });

    afterAll(async () => {
      await harness?.close();
      await smtp?.close();
    }, 30_000);

    const evaluator = (maxAttempts: number, backoffMs: number) => {
      const created = createMonitorEvaluator({
        database: harness.database,
        secretBox: harness.secretBox,
        mailer: harness.dashboard.services.mailer,
        logger: createSilentLogger(),
        intervalMs: 60_000,
        deliveryTimeoutMs: 500,
        deliveryRetry: { maxAttempts, backoffMs },
        publicUrl: "http://dashboard.test",
        now: clock,
      });
      evaluators.push(created);
      return created;
    };

    /** A rule that fires on any call of the organization, notifying the channel. */
    async function anyTrafficRule(name: string, channelId: string): Promise<string> {
      const created = await harness.request("POST", "/api/monitors", {
        cookie: owner,
        body: { name, metric: "requests", scope: { kind: "organization", value: null }, window_minutes: 5, comparator: "gt", threshold: 0, channel_ids: [channelId] },
      });
      expect(created.status, created.text).toBe(201);
      return created.body.id as string;
    }

    const delivery = async (monitorId: string) => {
      const events = await harness.request("GET", `/api/monitors/${monitorId}/events`, { cookie: owner });
      expect(events.status).toBe(200);
      expect(events.body.data).toHaveLength(1);
      return events.body.data[0].deliveries[0];
    };

    it("retries a webhook after a 5xx and a timeout with backoff, records each attempt, and never sends it again once delivered", async () => {
      const hanging: ServerResponse[] = [];
      let answered = 0;
      const receiver = await startLocalHttpServer((_request, response) => {
        answered += 1;
        if (answered === 1) response.writeHead(503).end("down");
        else if (answered === 2) hanging.push(response);
        else response.writeHead(200, { "content-type": "application/json" }).end("{}");
      });
      try {
        const channel = await harness.request("POST", "/api/notification-channels", {
          cookie: owner,
          body: { name: "flaky hook", config: { kind: "webhook", url: `${receiver.url}/alerts`, secret: "whsec_0123456789abcdef" } },
        });
        expect(channel.status, channel.text).toBe(201);
        const monitorId = await anyTrafficRule("flaky webhook", channel.body.id);
        const checker = evaluator(4, 10_000);
        await recordMonitorCalls(harness.database, { organizationId, now: clock(), calls: 3, errors: 0 });

        expect((await checker.tick()).evaluation?.events).toBe(1);
        const first = await delivery(monitorId);
        expect(first).toMatchObject({ status: "pending", error: expect.stringContaining("503"), attempts: [{ outcome: "failed", error: expect.stringContaining("503") }] });
        expect(Date.parse(first.next_attempt_at) - Date.parse(first.attempted_at)).toBe(10_000);

        // Not due yet: nothing is sent.
        await checker.tick();
        expect(receiver.received).toHaveLength(1);

        offsetMs += 10_000;
        await checker.tick();
        const second = await delivery(monitorId);
        expect(second.status).toBe("pending");
        expect(second.attempts).toHaveLength(2);
        expect(second.attempts[1]).toMatchObject({ outcome: "failed", error: expect.stringContaining("No answer within") });
        expect(Date.parse(second.next_attempt_at) - Date.parse(second.attempted_at)).toBe(20_000);

        offsetMs += 20_000;
        await checker.tick();
        const third = await delivery(monitorId);
        expect(third).toMatchObject({ status: "delivered", error: null, next_attempt_at: null });
        expect(third.attempts.map((attempt: { outcome: string }) => attempt.outcome)).toEqual(["failed", "failed", "delivered"]);

        // Past the time a fourth attempt would have been due (the rule still firing: no resolved message either).
        offsetMs += 40_000;
        await checker.tick();
        expect(receiver.received).toHaveLength(3);
        // Every attempt carries the same event id, so a receiver that got a timed-out one can drop the repeat.
        expect(new Set(receiver.received.map((request) => request.headers["x-gateway-event-id"])).size).toBe(1);
        await harness.request("DELETE", `/api/monitors/${monitorId}`, { cookie: owner });
      } finally {
        for (const response of hanging) response.destroy();
        await receiver.close();
      }
    }, 60_000);

    it("gives an email delivery up after its last failed attempt and shows why", async () => {
      const channel = await harness.request("POST", "/api/notification-channels", {
        cookie: owner,
        body: { name: "refused mail", config: { kind: "email", recipients: ["oncall@example.com"] } },
      });
      expect(channel.status, channel.text).toBe(201);
      const monitorId = await anyTrafficRule("refused email", channel.body.id);
      const checker = evaluator(2, 1_000);
      smtp.refuse("messages");
      try {
        await recordMonitorCalls(harness.database, { organizationId, now: clock(), calls: 1, errors: 0 });
        await checker.tick();
        expect(await delivery(monitorId)).toMatchObject({ status: "pending", attempts: [{ outcome: "failed" }] });
        offsetMs += 1_000;
        await checker.tick();
        const given = await delivery(monitorId);
        expect(given).toMatchObject({ status: "failed", next_attempt_at: null, error: expect.stringContaining("554") });
        expect(given.attempts).toHaveLength(2);
      } finally {
        smtp.refuse(null);
      }
      // Failed is final: past the time a third attempt would have been due, nothing is sent.
      offsetMs += 2_000;
      await checker.tick();
      expect(smtp.received).toHaveLength(0);
      await harness.request("DELETE", `/api/monitors/${monitorId}`, { cookie: owner });
    }, 60_000);
  });
}
