import { createServer, type IncomingMessage, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";
import { createDatabase, writeUsageBatch } from "@gateway/db";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { describeAccessibilityViolations } from "./support/check-accessibility.js";
import { chromiumAvailable, launchChromium } from "./support/launch-chromium.js";
import { type PageTrouble, signInInBrowser, watchPage } from "./support/sign-in-in-browser.js";
import { type GatewayStack, startGatewayStack } from "./support/start-gateway-stack.js";

type UsageEventRecord = Parameters<typeof writeUsageBatch>[1][number];

/** A webhook receiver on 127.0.0.1 that answers 204 and keeps what it was sent. */
async function startWebhookReceiver(): Promise<{ url: string; received: { headers: IncomingMessage["headers"]; body: any }[]; close(): Promise<void> }> {
  const received: { headers: IncomingMessage["headers"]; body: any }[] = [];
  const server: Server = createServer((request, response) => {
    let text = "";
    request.on("data", (chunk: Buffer) => (text += chunk.toString("utf8")));
    request.on("end", () => {
      received.push({ headers: request.headers, body: JSON.parse(text) });
      response.writeHead(204).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`, received, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}

/**
 * The Monitors screen in a real Chromium against `pnpm start`: an owner creates a rule from the
 * screen (bad input refused on its field), sees it listed, sees it fire once failing calls are
 * recorded (its state, its chart and its history with the delivery to a local webhook), mutes
 * and unmutes it, and deletes it.
 */
describe.skipIf(!chromiumAvailable)("the dashboard in the browser: monitors", () => {
  let stack: GatewayStack;
  let webhook: Awaited<ReturnType<typeof startWebhookReceiver>>;
  let browser: Browser;
  let page: Page;
  let cookie: string;
  let organizationId: string;
  let projectId: string;
  let key: { id: string; name: string };
  let demoConnectionId: string;
  let trouble: PageTrouble;

  const dashboardApi = async (method: string, pathname: string, body?: unknown) => {
    const response = await fetch(`${stack.dashboardUrl}${pathname}`, {
      method,
      headers: { cookie, origin: stack.dashboardUrl, ...(body === undefined ? {} : { "content-type": "application/json" }) },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    const text = await response.text();
    if (!response.ok) throw new Error(`${method} ${pathname}: ${response.status} ${text}`);
    return JSON.parse(text) as any;
  };

  beforeAll(async () => {
    webhook = await startWebhookReceiver();
    // Evaluations every second instead of every minute: a rule fires within seconds of the calls being recorded.
    [stack, browser] = await Promise.all([startGatewayStack({ smtpUrl: null, env: { DASHBOARD_MONITOR_INTERVAL_MS: "1000" } }), launchChromium()]);
    const login = await fetch(`${stack.dashboardUrl}/v1/auth/login`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ email: stack.adminEmail, password: stack.adminPassword }) });
    cookie = login.headers.get("set-cookie")!.split(";")[0]!;
    organizationId = ((await login.json()) as { organization: { id: string } }).organization.id;
    projectId = (await dashboardApi("GET", "/api/projects")).data[0].id;
    key = await dashboardApi("POST", "/api/api-keys", { name: "checkout-prod", project_id: projectId });
    demoConnectionId = (await dashboardApi("GET", "/api/connections")).data.find((connection: { kind: string }) => connection.kind === "demo").id;
    await dashboardApi("POST", "/api/notification-channels", { name: "on-call hook", config: { kind: "webhook", url: webhook.url, secret: "a-signing-secret-of-some-length" } });

    page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    trouble = watchPage(page);
    await signInInBrowser(page, stack);
  });
  afterAll(async () => {
    await browser?.close();
    await stack?.close();
    await webhook?.close();
  });

  const row = () => page.getByTestId("monitor-Checkout errors");
  let seeded = 0;
  /** Records calls of the checkout key two minutes ago (inside the rule's window, which ends at the current minute) through the database, as the gateway's usage batches do. */
  const recordCalls = async (statuses: number[]) => {
    const occurredAt = new Date(Date.now() - 120_000);
    const records: UsageEventRecord[] = statuses.map((status) => ({
      requestId: `req_monitor_${String(seeded++).padStart(3, "0")}`,
      traceId: null,
      occurredAt,
      organizationId,
      projectId,
      apiKeyId: key.id,
      userId: null,
      endpoint: "chat_completions",
      requestedModel: "demo/demo/chat",
      provider: "demo",
      model: "demo/chat",
      connectionId: demoConnectionId,
      routeId: null,
      status,
      errorCode: status >= 400 ? "upstream_error" : null,
      errorMessage: status >= 400 ? "The provider answered 502." : null,
      inputTokens: 10,
      outputTokens: 10,
      cacheReadTokens: 0,
      cacheWriteTokens: 0,
      reasoningTokens: 0,
      costMicros: 100,
      latencyMs: 250,
      budgetOutcome: null,
      timeToFirstByteMs: null,
      clientLabel: "checkout-service",
      clientVersion: null,
      sessionId: null,
      guardrailFlags: [],
      metadata: {},
      attempts: [],
      content: null,
    }));
    const database = createDatabase({ url: `file:${path.join(stack.dataDirectory, "gateway.db")}` });
    try {
      await writeUsageBatch(database, records);
    } finally {
      await database.close();
    }
  };
  const ruleStatus = async () => (await dashboardApi("GET", "/api/monitors")).data[0]?.status;

  it("creates a rule from the screen, refusing a bad threshold on its field, and lists it", async () => {
    await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Monitors" }).click();
    await page.getByRole("heading", { level: 1, name: "Monitors" }).waitFor();
    await page.getByRole("heading", { name: "No monitors yet" }).waitFor();
    expect(await page.title()).toBe("Monitors · AI Gateway");

    await page.getByRole("button", { name: "Create monitor" }).first().click();
    const dialog = page.getByRole("dialog", { name: "Create monitor" });
    await dialog.getByLabel("Name").fill("Checkout errors");
    await dialog.getByLabel("Metric").selectOption({ label: "Error rate" });
    await dialog.getByLabel("Applies to").selectOption({ label: "API key" });
    await dialog.getByLabel("API key", { exact: true }).selectOption(key.id);
    await dialog.getByLabel("Comparison").selectOption({ label: "≥ at or above" });
    await dialog.getByLabel("Threshold (%)").fill("half");
    await dialog.getByLabel("Window").selectOption({ label: "Last 15 min" });
    await dialog.getByLabel("Minimum calls").fill("3");
    await dialog.getByLabel("Severity").selectOption({ label: "Critical" });
    await dialog.getByLabel("on-call hook (webhook)").check();
    await dialog.getByRole("button", { name: "Create monitor" }).click();
    // Refused before it is sent, on the field, which takes the focus.
    await dialog.getByText("Enter a percentage from 0 to 100, e.g. 5.").waitFor();
    expect(await dialog.getByLabel("Threshold (%)").evaluate((element) => element === document.activeElement)).toBe(true);
    expect((await dashboardApi("GET", "/api/monitors")).data).toEqual([]);
    expect(await describeAccessibilityViolations(page)).toEqual([]);

    await dialog.getByLabel("Threshold (%)").fill("50");
    await dialog.getByRole("button", { name: "Create monitor" }).click();
    await dialog.waitFor({ state: "hidden" });
    await row().waitFor();
    expect(await row().textContent()).toContain("Error rate ≥ 50% over 15 min (at least 3 calls)");
    expect(await row().textContent()).toContain("API key checkout-prod");

    const [created] = (await dashboardApi("GET", "/api/monitors")).data;
    expect(created).toMatchObject({
      name: "Checkout errors",
      metric: "error_rate",
      scope: { kind: "api_key", value: key.id },
      comparator: "gte",
      threshold: 0.5,
      window_minutes: 15,
      min_calls: 3,
      severity: "critical",
      renotify_minutes: null,
      enabled: true,
    });
    expect(created.channel_ids).toHaveLength(1);
  });

  it("shows the rule firing once failing calls are recorded: its state, its chart and its history with the delivery", async () => {
    // 3 of 4 calls failed: 75 % >= 50 %, with the 3 calls the rule asks for.
    await recordCalls([502, 502, 502, 200]);
    await expect.poll(ruleStatus, { timeout: 20_000 }).toBe("firing");
    await expect.poll(() => webhook.received.length, { timeout: 20_000 }).toBe(1);

    await page.reload();
    await row().getByText("firing").waitFor();
    expect(await row().getByTestId("monitor-state-summary").textContent()).toContain("firing 75%");
    const chart = row().getByRole("img", { name: /highest 75%; threshold 50%$/ });
    await chart.waitFor();

    await row().getByRole("button", { name: "History of Checkout errors" }).click();
    const drawer = page.getByRole("dialog", { name: "Checkout errors" });
    expect(new URL(page.url()).searchParams.get("monitor")).toBe((await dashboardApi("GET", "/api/monitors")).data[0].id);
    const state = drawer.getByTestId("monitor-state");
    await state.waitFor();
    expect(await state.textContent()).toMatch(/^API key checkout-prodMatching callsfiring75%4/);
    const fired = drawer.getByTestId("monitor-event");
    await fired.getByText("delivered").waitFor();
    expect(await fired.count()).toBe(1);
    expect(await fired.textContent()).toMatch(/fired75%threshold 50%, 4 calls in 15 minon-call hook delivered/);
    expect(await describeAccessibilityViolations(page)).toEqual([]);

    // The event's link opens the calls it measured: the key's calls of the window.
    await fired.getByRole("link", { name: "Matching calls" }).click();
    await page.getByRole("heading", { level: 1, name: "Activity" }).waitFor();
    expect(new URL(page.url()).searchParams.get("api_key_id")).toBe(key.id);
    await page.getByRole("table", { name: "Calls", exact: true }).getByText("req_monitor_000").waitFor();
  });

  it("shows the rule resolved once the calls recover, with the resolved event on top", async () => {
    // 3 failures in 24 calls: 12.5 %, under the threshold.
    await recordCalls(Array.from({ length: 20 }, () => 200));
    await expect.poll(ruleStatus, { timeout: 20_000 }).toBe("resolved");
    await expect.poll(() => webhook.received.length, { timeout: 20_000 }).toBe(2);

    await page.goto(`${stack.dashboardUrl}/monitors`);
    await row().getByText("resolved").waitFor();
    await row().getByRole("button", { name: "History of Checkout errors" }).click();
    const events = page.getByRole("dialog", { name: "Checkout errors" }).getByTestId("monitor-event");
    await events.nth(1).waitFor();
    expect(await events.evaluateAll((rows) => rows.map((item) => item.querySelector(".badge")?.textContent))).toEqual(["resolved", "fired"]);
    await page.getByRole("dialog", { name: "Checkout errors" }).getByRole("button", { name: "Close" }).click();
    expect(new URL(page.url()).searchParams.get("monitor")).toBeNull();
  });

  it("mutes the rule for an hour and unmutes it, edits it, and deletes it", async () => {
    await row().getByRole("button", { name: "Mute" }).click();
    const mute = page.getByRole("dialog", { name: "Mute Checkout errors" });
    await mute.getByLabel("Mute for").selectOption({ label: "Until a date and time" });
    await mute.getByLabel("Muted until").fill("2020-01-01T10:00");
    await mute.getByRole("button", { name: "Mute" }).click();
    await mute.getByText("Enter a time in the future.").waitFor();
    await mute.getByLabel("Mute for").selectOption({ label: "1 h" });
    const before = Date.now();
    await mute.getByRole("button", { name: "Mute" }).click();
    await mute.waitFor({ state: "hidden" });
    await row().getByText(/^muted until/).waitFor();
    const mutedUntil = new Date((await dashboardApi("GET", "/api/monitors")).data[0].muted_until).getTime();
    expect(mutedUntil - before).toBeGreaterThan(59 * 60_000);
    expect(mutedUntil - before).toBeLessThan(61 * 60_000);
    await row().getByRole("button", { name: "Unmute" }).click();
    await row().getByRole("button", { name: "Mute" }).waitFor();
    expect((await dashboardApi("GET", "/api/monitors")).data[0].muted_until).toBeNull();

    await row().getByRole("button", { name: "Edit" }).click();
    const edit = page.getByRole("dialog", { name: "Edit Checkout errors" });
    expect(await edit.getByLabel("Threshold (%)").inputValue()).toBe("50");
    await edit.getByLabel("Threshold (%)").fill("60");
    await edit.getByLabel("Notify again while firing").selectOption({ label: "Every 1 h" });
    await edit.getByRole("button", { name: "Save" }).click();
    await edit.waitFor({ state: "hidden" });
    await row().getByText("Error rate ≥ 60% over 15 min (at least 3 calls)").waitFor();
    expect((await dashboardApi("GET", "/api/monitors")).data[0]).toMatchObject({ threshold: 0.6, renotify_minutes: 60, scope: { kind: "api_key", value: key.id } });

    await row().getByRole("button", { name: "Delete" }).click();
    const confirm = page.getByRole("dialog", { name: "Delete this monitor?" });
    await confirm.getByRole("button", { name: "Delete monitor" }).click();
    await page.getByRole("heading", { name: "No monitors yet" }).waitFor();
    expect((await dashboardApi("GET", "/api/monitors")).data).toEqual([]);
    expect(trouble.forbidden).toEqual([]);
    expect(trouble.consoleErrors).toEqual([]);
  });
});
