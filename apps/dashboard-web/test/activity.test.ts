import { readFileSync } from "node:fs";
import path from "node:path";
import { createDatabase, loadSecretBoxFromEnvironment, writeUsageBatch } from "@gateway/db";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

type UsageEventRecord = Parameters<typeof writeUsageBatch>[1][number];
import { describeAccessibilityViolations } from "./support/check-accessibility.js";
import { chromiumAvailable, launchChromium } from "./support/launch-chromium.js";
import { type GatewayStack, startGatewayStack } from "./support/start-gateway-stack.js";

/** Calls seeded for the checkout key: one every 30 s, every 10th a 502, a third of them for customer acme. */
const seededCount = 120;

/**
 * The Activity screen in a real Chromium against `pnpm start`: calls seeded through the database
 * (a history, and a call retried then served by a fallback) and made through the gateway (a
 * session whose content the project captures); filter chips, loading more on scroll, the detail
 * drawer, content for an owner and not for a viewer, sessions, the exports, and the links from
 * the API keys and Usage screens.
 */
describe.skipIf(!chromiumAvailable)("the dashboard in the browser: activity", () => {
  let stack: GatewayStack;
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  let cookie: string;
  let checkoutKey: { id: string; name: string };
  let sessionCallIds: string[];
  const viewer = { email: "vera@example.com", password: "a viewer passphrase" };
  const forbidden: string[] = [];
  const consoleErrors: string[] = [];

  const dashboardApi = async (path: string, init: { method?: string; body?: unknown } = {}) => {
    const response = await fetch(`${stack.dashboardUrl}${path}`, {
      method: init.method ?? "GET",
      headers: { cookie, origin: stack.dashboardUrl, "content-type": "application/json" },
      ...(init.body === undefined ? {} : { body: JSON.stringify(init.body) }),
    });
    const text = await response.text();
    if (!response.ok) throw new Error(`${init.method ?? "GET"} ${path}: ${response.status} ${text}`);
    return JSON.parse(text) as Record<string, unknown> & { data: Record<string, unknown>[] };
  };

  beforeAll(async () => {
    [stack, browser] = await Promise.all([startGatewayStack({ smtpUrl: null }), launchChromium()]);
    const login = await fetch(`${stack.dashboardUrl}/v1/auth/login`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ email: stack.adminEmail, password: stack.adminPassword }) });
    cookie = login.headers.get("set-cookie")!.split(";")[0]!;
    const organizationId = ((await login.json()) as { organization: { id: string } }).organization.id;
    const defaultProject = (await dashboardApi("/api/projects")).data[0] as { id: string };
    const support = (await dashboardApi("/api/projects", { method: "POST", body: { name: "Support", capture_content: true } })) as unknown as { id: string };
    checkoutKey = (await dashboardApi("/api/api-keys", { method: "POST", body: { name: "checkout-prod", project_id: defaultProject.id } })) as unknown as { id: string; name: string };
    const supportKey = (await dashboardApi("/api/api-keys", { method: "POST", body: { name: "support-bot", project_id: support.id } })) as unknown as { id: string; secret: string };
    const demo = (await dashboardApi("/api/connections")).data.find((connection) => connection.kind === "demo") as { id: string };

    // A viewer of the support project (invited without mail: the owner shares the link).
    const invitation = (await dashboardApi("/api/invitations", { method: "POST", body: { email: viewer.email, role: "viewer", project_ids: [support.id] } })) as unknown as { accept_url: string };
    const accepted = await fetch(`${stack.dashboardUrl}/v1/auth/invitations/accept`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ token: new URL(invitation.accept_url).searchParams.get("token"), name: "Vera Viewer", password: viewer.password }),
    });
    expect(accepted.status).toBe(200);

    // A session of three calls through the gateway, in a project that captures content.
    for (const question of ["Where is order 1001?", "And order 1002?", "Thanks!"]) {
      const answer = await fetch(`${stack.gatewayUrl}/v1/chat/completions`, {
        method: "POST",
        headers: { authorization: `Bearer ${supportKey.secret}`, "content-type": "application/json", "x-gateway-client": "support-bot/1.4.0", "x-gateway-session-id": "conv-42", "x-gateway-metadata": JSON.stringify({ channel: "chat" }) },
        body: JSON.stringify({ model: "demo/demo/chat", messages: [{ role: "user", content: question }] }),
      });
      expect(answer.status).toBe(200);
    }

    // A history for the checkout key, older than the gateway calls, and one call retried then served by a fallback.
    const now = Date.now();
    const base = {
      traceId: null,
      organizationId,
      projectId: defaultProject.id,
      apiKeyId: checkoutKey.id,
      userId: null,
      endpoint: "chat_completions",
      requestedModel: "demo/demo/chat",
      routeId: null,
      cacheReadTokens: 0,
      cacheWriteTokens: 0,
      reasoningTokens: 0,
      budgetOutcome: null,
      timeToFirstByteMs: null,
      clientLabel: "checkout-service",
      clientVersion: "2.3.1",
      sessionId: null,
      guardrailFlags: [],
      content: null,
    } satisfies Partial<UsageEventRecord>;
    const history: UsageEventRecord[] = Array.from({ length: seededCount }, (_, index) => {
      const failed = index % 10 === 0;
      return {
        ...base,
        requestId: `req_seed_${String(index).padStart(3, "0")}`,
        occurredAt: new Date(now - 60_000 - index * 30_000),
        provider: "demo",
        model: "demo/chat",
        connectionId: demo.id,
        status: failed ? 502 : 200,
        errorCode: failed ? "upstream_error" : null,
        errorMessage: failed ? "The provider answered 502." : null,
        inputTokens: failed ? 0 : 100 + index,
        outputTokens: failed ? 0 : 20,
        costMicros: failed ? 0 : 1_000 + index,
        latencyMs: 200 + index,
        metadata: { customer: index % 3 === 0 ? "acme" : "globex" },
        attempts: [{ connectionId: demo.id, provider: "demo", model: "demo/chat", status: failed ? 502 : 200, latencyMs: 180 + index, errorCode: failed ? "upstream_error" : null, outcome: failed ? "failed" : "served", reason: failed ? "upstream_5xx" : null }],
      };
    });
    history.push({
      ...base,
      requestId: "req_fallback_1",
      occurredAt: new Date(now - 30_000),
      provider: "demo",
      model: "demo/chat",
      connectionId: demo.id,
      status: 200,
      errorCode: null,
      inputTokens: 1_234,
      outputTokens: 56,
      costMicros: 4_321,
      latencyMs: 2_900,
      gatewayOverheadMs: 4,
      timeToFirstByteMs: 2_700,
      metadata: {},
      attempts: [
        { connectionId: null, provider: "openai", model: "gpt-4o-mini", status: 502, latencyMs: 900, errorCode: "upstream_error", outcome: "retried", reason: "upstream_5xx" },
        { connectionId: null, provider: "openai", model: "gpt-4o-mini", status: null, latencyMs: 1_500, errorCode: "timeout", outcome: "fell_back", reason: "timeout" },
        { connectionId: demo.id, provider: "demo", model: "demo/chat", status: 200, latencyMs: 400, errorCode: null, outcome: "served", reason: null },
      ],
    });
    // A call of the support project with captured content, sealed with the stack's own secret box.
    const captured: UsageEventRecord = {
      ...base,
      requestId: "req_content_1",
      occurredAt: new Date(now - 45_000),
      projectId: support.id,
      apiKeyId: supportKey.id,
      clientLabel: "support-bot",
      clientVersion: "1.4.0",
      provider: "demo",
      model: "demo/chat",
      connectionId: demo.id,
      status: 200,
      errorCode: null,
      inputTokens: 12,
      outputTokens: 9,
      costMicros: 7,
      latencyMs: 320,
      metadata: { ticket: "T-1001" },
      attempts: [{ connectionId: demo.id, provider: "demo", model: "demo/chat", status: 200, latencyMs: 300, errorCode: null, outcome: "served", reason: null }],
      content: { request: { model: "demo/demo/chat", messages: [{ role: "user", content: "Where is order 1001?" }] }, response: { choices: [{ message: { role: "assistant", content: "It ships today." } }] } },
      contentCapture: { maxBytes: 65_536, retentionDays: 7 },
    };
    const database = createDatabase({ url: `file:${path.join(stack.dataDirectory, "gateway.db")}` });
    try {
      const secretBox = loadSecretBoxFromEnvironment({ env: {}, dataDirectory: stack.dataDirectory, generateWhenMissing: false });
      await writeUsageBatch(database, [...history, captured], { secretBox });
    } finally {
      await database.close();
    }
    // The gateway writes its calls with the next usage batch: wait until the session is listed.
    for (let attempt = 0; attempt < 100; attempt += 1) {
      sessionCallIds = (await dashboardApi("/api/activity?session_id=conv-42")).data.map((call) => call.request_id as string);
      if (sessionCallIds.length === 3) break;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    expect(sessionCallIds).toHaveLength(3);

    context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    page = await context.newPage();
    page.on("response", (response) => {
      if (response.status() === 403) forbidden.push(`${response.request().method()} ${response.url()}`);
    });
    page.on("console", (message) => {
      if (message.type() === "error" && !message.text().startsWith("Failed to load resource")) consoleErrors.push(message.text());
    });
    page.on("pageerror", (error) => consoleErrors.push(String(error)));
    await page.goto(`${stack.dashboardUrl}/login`);
    await page.getByLabel("Email").fill(stack.adminEmail);
    await page.getByLabel("Password").fill(stack.adminPassword);
    await page.getByRole("button", { name: "Sign in" }).click();
    await page.getByTestId("signed-in-user").waitFor();
  });
  afterAll(async () => {
    await browser?.close();
    await stack?.close();
  });

  const callsTable = () => page.getByRole("table", { name: "Calls", exact: true });
  const rowCount = () => callsTable().locator("tbody tr").count();
  const waitForRows = (count: number) => expect.poll(rowCount, { timeout: 15_000 }).toBe(count);
  const addFilter = async (kind: string, fill: (form: ReturnType<Page["getByRole"]>) => Promise<unknown>) => {
    const form = page.getByRole("search", { name: "Add a filter" });
    await form.getByLabel("Add a filter").selectOption({ label: kind });
    await fill(form);
    await form.getByRole("button", { name: "Add filter" }).click();
  };

  it("opens from an API key's row filtered by the key, and loads older calls as the page scrolls", async () => {
    await page.goto(`${stack.dashboardUrl}/api-keys`);
    await page.getByRole("link", { name: "Activity of checkout-prod" }).click();
    await page.getByRole("heading", { level: 1, name: "Activity" }).waitFor();
    expect(new URL(page.url()).searchParams.get("api_key_id")).toBe(checkoutKey.id);
    await page.getByRole("list", { name: "Active filters" }).getByText("checkout-prod").waitFor();
    await waitForRows(50);
    // Newest first: the fallback call, then the history from the newest.
    const firstIds = await callsTable().locator("tbody tr td:last-child").evaluateAll((cells) => cells.slice(0, 3).map((cell) => cell.textContent));
    expect(firstIds).toEqual(["req_fallback_1", "req_seed_000", "req_seed_001"]);
    expect(await page.getByText(/all shown/).count()).toBe(0);

    await page.evaluate(() => window.scrollTo(0, document.body.scrollHeight));
    await waitForRows(100);
    await page.evaluate(() => window.scrollTo(0, document.body.scrollHeight));
    await waitForRows(seededCount + 1);
    await page.getByText(`${seededCount + 1} calls, all shown.`).waitFor();
    const ids = await callsTable().locator("tbody tr td:last-child").allTextContents();
    expect(new Set(ids).size).toBe(seededCount + 1);
    expect(ids.at(-1)).toBe(`req_seed_${seededCount - 1}`);
    expect(await describeAccessibilityViolations(page)).toEqual([]);
  });

  it("narrows the calls with filter chips and widens them again by removing a chip", async () => {
    await page.goto(`${stack.dashboardUrl}/activity?api_key_id=${checkoutKey.id}`);
    await waitForRows(50);
    await addFilter("Status", (form) => form.getByLabel("Status").selectOption("5xx"));
    await waitForRows(seededCount / 10);
    expect(new URL(page.url()).searchParams.get("status")).toBe("5xx");
    expect(new Set(await callsTable().locator("tbody tr td:nth-child(2) .badge").allTextContents())).toEqual(new Set(["502"]));

    await addFilter("Metadata", (form) => form.getByLabel("Metadata", { exact: true }).fill("customer=acme"));
    // Every 10th call failed, every 3rd is acme's: calls 0, 30, 60 and 90.
    await waitForRows(4);
    expect(await callsTable().locator("tbody tr td:last-child").allTextContents()).toEqual(["req_seed_000", "req_seed_030", "req_seed_060", "req_seed_090"]);

    await page.getByRole("button", { name: "Remove the filter Status: 5xx" }).click();
    await waitForRows(seededCount / 3);
    expect(new URL(page.url()).searchParams.get("status")).toBeNull();
    expect(new URL(page.url()).searchParams.getAll("metadata")).toEqual(["customer:acme"]);

    await addFilter("Latency at least", (form) => form.getByLabel("Latency at least (ms)").fill("300"));
    // acme's calls with latency 200 + index >= 300: index 102, 105, ..., 117.
    await waitForRows(6);

    await addFilter("Request id", (form) => form.getByLabel("Request id").fill("req_nothing_like_it"));
    await page.getByRole("heading", { name: "No calls match these filters" }).waitFor();
    expect(await describeAccessibilityViolations(page)).toEqual([]);
    await page.getByRole("button", { name: "Clear the filters" }).click();
    await page.getByRole("button", { name: /^Remove the filter/ }).first().waitFor({ state: "detached" });
    expect(new URL(page.url()).search).toBe("");
  });

  it("shows a call retried, then served by a fallback, in the drawer: attempts, timings, tokens and cost", async () => {
    await page.goto(`${stack.dashboardUrl}/activity?api_key_id=${checkoutKey.id}`);
    await page.getByRole("button", { name: "Open call req_fallback_1" }).click();
    const drawer = page.getByRole("dialog", { name: "Call details" });
    const attempts = drawer.getByRole("list", { name: "Attempts" }).getByRole("listitem");
    await attempts.first().waitFor();
    expect(await attempts.allTextContents()).toEqual([
      expect.stringMatching(/Attempt 1.*retried.*because upstream 5xx.*openai\/gpt-4o-mini.*status 502 \(upstream_error\).*900 ms/),
      expect.stringMatching(/Attempt 2.*fell back.*because timeout.*openai\/gpt-4o-mini.*no answer \(timeout\).*1\.5 s/),
      expect.stringMatching(/Attempt 3.*served.*demo\/demo\/chat.*via demo.*status 200.*400 ms/),
    ]);
    const timings = await drawer.getByRole("definition").allTextContents();
    expect(timings.slice(0, 3)).toEqual(["2.9 s", "2.7 s", "4 ms"]);
    const tokens = drawer.locator('dl[aria-label="Tokens and cost"]');
    expect(await tokens.textContent()).toMatch(/Input1,234Output56.*Cost\$0\.0043/);
    expect(new URL(page.url()).searchParams.get("call")).toBe("req_fallback_1");
    // Seeded without content: an owner is told so.
    await drawer.getByText("Not captured").waitFor();
    expect(await describeAccessibilityViolations(page)).toEqual([]);
    await page.keyboard.press("Escape");
    await drawer.waitFor({ state: "detached" }).catch(() => drawer.waitFor({ state: "hidden" }));
    expect(new URL(page.url()).searchParams.get("call")).toBeNull();
  });

  it("reads a call's captured content on demand for an owner (audited) and never shows it to a viewer", async () => {
    const firstCall = "req_content_1";
    await page.goto(`${stack.dashboardUrl}/activity?call=${firstCall}`);
    const drawer = page.getByRole("dialog", { name: "Call details" });
    await drawer.getByRole("button", { name: "Show the request and response" }).click();
    const content = drawer.getByTestId("activity-content");
    await content.waitFor();
    expect(await content.getByRole("region", { name: "Request" }).textContent()).toContain("Where is order 1001?");
    expect(await content.getByRole("region", { name: "Response" }).textContent()).toContain("It ships today.");
    // Each read is written to the audit log.
    const audit = await dashboardApi("/api/audit-events?action=activity.content_read");
    expect(JSON.stringify(audit.data)).toContain(firstCall);

    // A call made through the gateway: its content was captured by the project, its metadata sent by the caller.
    const gatewayCall = sessionCallIds.at(-1)!;
    await page.goto(`${stack.dashboardUrl}/activity?call=${gatewayCall}`);
    await drawer.locator('dl[aria-label="Metadata"]').getByText("chat").waitFor();
    await drawer.getByRole("button", { name: "Show the request and response" }).click();
    expect(await drawer.getByTestId("activity-content").getByRole("region", { name: "Request" }).textContent()).toContain("Where is order 1001?");
    expect(await describeAccessibilityViolations(page)).toEqual([]);

    const viewerContext = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    try {
      const viewerPage = await viewerContext.newPage();
      const contentRequests: string[] = [];
      viewerPage.on("request", (request) => {
        if (/\/api\/activity\/[^/]+\/content/.test(request.url())) contentRequests.push(request.url());
      });
      await viewerPage.goto(`${stack.dashboardUrl}/login`);
      await viewerPage.getByLabel("Email").fill(viewer.email);
      await viewerPage.getByLabel("Password").fill(viewer.password);
      await viewerPage.getByRole("button", { name: "Sign in" }).click();
      await viewerPage.getByTestId("signed-in-user").waitFor();
      await viewerPage.goto(`${stack.dashboardUrl}/activity?call=${firstCall}`);
      const viewerDrawer = viewerPage.getByRole("dialog", { name: "Call details" });
      await viewerDrawer.getByRole("list", { name: "Attempts" }).waitFor();
      await viewerDrawer.getByRole("heading", { name: "Metadata" }).waitFor();
      expect(await viewerDrawer.getByRole("heading", { name: "Content" }).count()).toBe(0);
      expect(await viewerDrawer.getByRole("button", { name: "Show the request and response" }).count()).toBe(0);
      expect(await viewerDrawer.textContent()).not.toContain("Where is order 1001?");
      expect(await viewerDrawer.textContent()).toContain("T-1001");
      // The viewer sees the support project only (the session and this call): none of the checkout key's calls.
      await viewerPage.keyboard.press("Escape");
      await viewerPage.getByRole("table", { name: "Calls", exact: true }).waitFor();
      await expect.poll(() => viewerPage.getByRole("table", { name: "Calls", exact: true }).locator("tbody tr").count()).toBe(4);
      expect(contentRequests).toEqual([]);
    } finally {
      await viewerContext.close();
    }
  });

  it("groups calls into sessions and shows one session's calls in the order they were made", async () => {
    await page.goto(`${stack.dashboardUrl}/activity`);
    await page.getByRole("navigation", { name: "Activity views" }).getByRole("button", { name: "Sessions" }).click();
    const session = page.getByTestId("activity-session-conv-42");
    await session.waitFor();
    const cells = await session.getByRole("cell").allTextContents();
    expect(cells.slice(1, 3)).toEqual(["Support", "support-bot"]);
    // Calls, errors.
    expect(cells.slice(4, 6)).toEqual(["3", "0"]);
    await session.getByRole("button", { name: "conv-42" }).click();
    await page.getByRole("heading", { name: "Session conv-42" }).waitFor();
    const ids = await page.getByRole("table", { name: "Calls of the session, oldest first" }).locator("tbody tr td:last-child").allTextContents();
    expect(ids).toEqual([...sessionCallIds].reverse());
    expect(await describeAccessibilityViolations(page)).toEqual([]);
    await page.getByRole("button", { name: "← All sessions" }).click();
    await session.waitFor();
  });

  it("exports what the filters match as CSV and NDJSON", async () => {
    await page.goto(`${stack.dashboardUrl}/activity?api_key_id=${checkoutKey.id}&status=5xx`);
    await waitForRows(seededCount / 10);
    const [csvDownload] = await Promise.all([page.waitForEvent("download"), page.getByRole("link", { name: "Export CSV" }).click()]);
    const csv = readFileSync(await csvDownload.path(), "utf8").trim().split(/\r?\n/);
    expect(csv).toHaveLength(1 + seededCount / 10);
    expect(csv[0]).toContain("request_id");
    expect(csv.slice(1).every((line) => line.includes("req_seed_") && line.includes("502"))).toBe(true);
    const [ndjsonDownload] = await Promise.all([page.waitForEvent("download"), page.getByRole("link", { name: "Export NDJSON" }).click()]);
    const rows = readFileSync(await ndjsonDownload.path(), "utf8").trim().split("\n").map((line) => JSON.parse(line) as { status: number; api_key_id: string });
    expect(rows).toHaveLength(seededCount / 10);
    expect(rows.every((row) => row.status === 502 && row.api_key_id === checkoutKey.id)).toBe(true);
  });

  it("opens a Usage chart's group (over the range) and bar (over its hour) as Activity filtered by that model", async () => {
    await page.goto(`${stack.dashboardUrl}/usage`);
    await page.getByLabel("By", { exact: true }).selectOption("model");
    await page.getByText("Show the numbers").click();
    await page.getByRole("link", { name: "Calls of demo/demo/chat" }).click();
    await page.getByRole("heading", { level: 1, name: "Activity" }).waitFor();
    const search = new URL(page.url()).searchParams;
    expect(search.get("model")).toBe("demo/chat");
    expect(search.get("from")).not.toBeNull();
    await waitForRows(50);
    const models = await callsTable().locator("tbody tr td:nth-child(4)").allTextContents();
    expect(models.every((model) => model.startsWith("demo/demo/chat"))).toBe(true);

    // A bar: its model in its hour.
    await page.goto(`${stack.dashboardUrl}/usage`);
    await page.getByLabel("By", { exact: true }).selectOption("model");
    await page.locator('[data-testid="usage-chart"] .recharts-bar-rectangle path').last().click();
    await page.getByRole("heading", { level: 1, name: "Activity" }).waitFor();
    const bar = new URL(page.url()).searchParams;
    expect(bar.get("model")).toBe("demo/chat");
    expect(Date.parse(bar.get("to")!) - Date.parse(bar.get("from")!)).toBe(3_600_000);
    await callsTable().waitFor();
    expect(await rowCount()).toBeGreaterThan(0);
  });

  it("sets how long a project keeps its calls and content, refusing a cap below the API's bound on its field", async () => {
    await page.goto(`${stack.dashboardUrl}/projects`);
    const row = page.getByRole("row", { name: /^Support/ });
    expect(await row.textContent()).toContain("calls kept 30 days, content 7 days");
    await row.getByRole("button", { name: "Edit" }).click();
    const dialog = page.getByRole("dialog", { name: "Edit project" });
    await dialog.getByLabel("Keep calls (days)").fill("90");
    await dialog.getByLabel("Keep content (days)").fill("14");
    await dialog.getByLabel("Content cap per call (bytes)").fill("10");
    await dialog.getByRole("button", { name: "Save" }).click();
    await dialog.getByText("At least 1024.").waitFor();
    await dialog.getByLabel("Content cap per call (bytes)").fill("131072");
    await dialog.getByRole("button", { name: "Save" }).click();
    await dialog.waitFor({ state: "hidden" });
    await row.getByText("calls kept 90 days, content 14 days").waitFor();
    const projects = (await dashboardApi("/api/projects")).data.find((project) => project.name === "Support");
    expect(projects).toMatchObject({ activity_retention_days: 90, content_retention_days: 14, content_max_bytes: 131_072 });
  });

  it("creates an API key with default metadata, refusing a line that is no pair on its field", async () => {
    await page.goto(`${stack.dashboardUrl}/api-keys`);
    await page.getByRole("button", { name: "Create API key" }).click();
    const dialog = page.getByRole("dialog", { name: "Create API key" });
    await dialog.getByLabel("Name").fill("batch jobs");
    await dialog.getByLabel("Default metadata (optional)").fill("team=checkout\nnot a pair");
    await dialog.getByRole("button", { name: "Create key" }).click();
    await dialog.getByText("“not a pair” is not key=value").waitFor();
    await dialog.getByLabel("Default metadata (optional)").fill("team=checkout\nregion=eu");
    await dialog.getByRole("button", { name: "Create key" }).click();
    await page.getByRole("dialog", { name: "Your new API key" }).getByRole("button", { name: "Done" }).click();
    const created = (await dashboardApi("/api/api-keys")).data.find((key) => key.name === "batch jobs");
    expect(created?.default_metadata).toEqual({ team: "checkout", region: "eu" });
  });

  it("fits a narrow window with the drawer open", async () => {
    await page.setViewportSize({ width: 390, height: 844 });
    await page.goto(`${stack.dashboardUrl}/activity?call=req_fallback_1`);
    await page.getByRole("dialog", { name: "Call details" }).getByRole("list", { name: "Attempts" }).waitFor();
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    expect(await describeAccessibilityViolations(page)).toEqual([]);
    await page.keyboard.press("Escape");
    await callsTable().waitFor();
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    await page.setViewportSize({ width: 1280, height: 900 });
    expect(forbidden).toEqual([]);
    expect(consoleErrors).toEqual([]);
  });
});
