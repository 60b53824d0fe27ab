import { randomBytes } from "node:crypto";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { chromiumAvailable, launchChromium } from "./support/launch-chromium.js";
import { startLocalSmtpServer } from "./support/local-smtp-server.js";
import { type GatewayStack, startGatewayStack } from "./support/start-gateway-stack.js";

/** An OpenAI-compatible provider whose every chat answer uses 10 + 10 tokens. */
async function startFixedUsageProvider(): Promise<{ url: string; close(): Promise<void> }> {
  const server: Server = createServer((request, response) => {
    request.resume();
    request.on("end", () => {
      const body = JSON.stringify({
        id: `chatcmpl-${randomBytes(4).toString("hex")}`,
        object: "chat.completion",
        created: 1_700_000_000,
        model: "fixed",
        choices: [{ index: 0, message: { role: "assistant", content: "ok", refusal: null }, logprobs: null, finish_reason: "stop" }],
        usage: { prompt_tokens: 10, completion_tokens: 10, total_tokens: 20 },
      });
      response.writeHead(200, { "content-type": "application/json", "content-length": Buffer.byteLength(body) }).end(body);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}

/**
 * The Budgets and Rate limits screens in a real Chromium against `pnpm start` (one process, the
 * gateway's in-memory counters): they show the figures the gateway admits against, the same as
 * its refusal details, and an owner resets a budget's spend from the screen.
 */
describe.skipIf(!chromiumAvailable)("the dashboard in the browser: budget and rate-limit figures", () => {
  let smtp: Awaited<ReturnType<typeof startLocalSmtpServer>>;
  let provider: Awaited<ReturnType<typeof startFixedUsageProvider>>;
  let stack: GatewayStack;
  let browser: Browser;
  let page: Page;
  let cookie: string;
  let secret: string;
  let apiKeyId: string;
  const consoleErrors: string[] = [];

  const api = async (method: string, path: string, body?: unknown) => {
    const response = await fetch(`${stack.dashboardUrl}${path}`, {
      method,
      headers: { cookie, origin: stack.dashboardUrl, ...(body === undefined ? {} : { "content-type": "application/json" }) },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    return { status: response.status, body: (await response.json()) as any };
  };
  let admitted = 0;
  const chat = async () => {
    const response = await fetch(`${stack.gatewayUrl}/v1/chat/completions`, {
      method: "POST",
      headers: { authorization: `Bearer ${secret}`, "content-type": "application/json" },
      body: JSON.stringify({ model: "figures/openai/fixed", max_tokens: 10, messages: [{ role: "user", content: "hi" }] }),
    });
    if (response.status === 200) admitted += 1;
    return { status: response.status, body: (await response.json()) as any };
  };
  /** Waits until every admitted call is in the recorded usage. */
  const recorded = async () => {
    const deadline = Date.now() + 10_000;
    for (;;) {
      const events = (await api("GET", `/api/usage/events?api_key_id=${apiKeyId}&status=success&limit=100`)).body.data as unknown[];
      if (events.length === admitted) return;
      if (Date.now() > deadline) throw new Error(`only ${events.length} of ${admitted} calls recorded`);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  };

  beforeAll(async () => {
    [smtp, provider] = await Promise.all([startLocalSmtpServer(), startFixedUsageProvider()]);
    [stack, browser] = await Promise.all([startGatewayStack({ smtpUrl: smtp.url }), launchChromium()]);
    const login = await fetch(`${stack.dashboardUrl}/v1/auth/login`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ email: stack.adminEmail, password: stack.adminPassword }),
    });
    cookie = login.headers.get("set-cookie")!.split(";")[0]!;
    const project = (await api("GET", "/api/projects")).body.data[0];
    const key = await api("POST", "/api/api-keys", { name: "figures", project_id: project.id });
    expect(key.status).toBe(201);
    secret = key.body.secret;
    apiKeyId = key.body.id ?? key.body.api_key?.id;
    // $100 per million tokens: every call costs 20 x 100 = 2,000 micro-USD ($0.002).
    const connection = await api("POST", "/api/connections", {
      name: "figures",
      kind: "openai",
      base_url: provider.url,
      credential: "sk-figures",
      models: ["openai/fixed"],
      prices: { "openai/fixed": { input: 100, output: 100 } },
    });
    expect(connection.status, JSON.stringify(connection.body)).toBe(201);
    page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
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
    await Promise.all([smtp?.close(), provider?.close()]);
  });

  it("shows a budget created after the spend with the spend the gateway refuses on, and resets it", async () => {
    for (let index = 0; index < 3; index++) expect((await chat()).status).toBe(200);
    await recorded();
    const budget = await api("POST", "/api/budgets", { name: "figures cap", scope: "key", scope_id: apiKeyId, amount_micros: 5_000, period: "month", mode: "hard" });
    expect(budget.status).toBe(201);
    // $0.006 spent before the $0.005 budget existed: the gateway refuses, naming that spend.
    const refused = await chat();
    expect(refused.status).toBe(424);
    expect(refused.body.error.details).toMatchObject({ spent_micros: 6_000, reserved_micros: 0 });

    await page.goto(`${stack.dashboardUrl}/budgets`);
    const row = page.getByTestId("budget-figures cap");
    await row.getByTestId("budget-spent").filter({ hasText: /^\$/ }).waitFor();
    expect(await row.getByTestId("budget-spent").textContent()).toBe("$0.006");
    expect(await row.getByTestId("budget-remaining").textContent()).toBe("$0");
    expect(await row.textContent()).toContain("120%");
    expect(await page.getByTestId("budget-source").textContent()).toContain("the counters of the gateway running with this dashboard");

    await row.getByRole("button", { name: "Reset spend" }).click();
    const dialog = page.getByRole("dialog", { name: "Reset this budget's spend?" });
    await dialog.getByRole("button", { name: "Reset spend" }).click();
    await dialog.waitFor({ state: "hidden" });
    await row.getByTestId("budget-spent").filter({ hasText: /^\$0reset/ }).waitFor();
    expect(await row.getByTestId("budget-remaining").textContent()).toBe("$0.005");
    const audit = await api("GET", "/api/audit-events?action=budget.reset");
    expect(audit.body.data[0]).toMatchObject({ action: "budget.reset", target_id: budget.body.id });

    // Spend after the reset counts (a larger amount lets the call through; the change keeps the reset).
    expect((await api("PATCH", `/api/budgets/${budget.body.id}`, { amount_micros: 1_000_000 })).status).toBe(200);
    expect((await chat()).status).toBe(200);
    await recorded();
    await page.reload();
    await row.getByTestId("budget-spent").filter({ hasText: /^\$0\.002reset/ }).waitFor();
    expect(consoleErrors).toEqual([]);
  });

  it("shows a new rate limit at 0 used and counts only the calls it admitted", async () => {
    // No budget in the way: only the limit decides.
    for (const budget of (await api("GET", "/api/budgets")).body.data) await api("DELETE", `/api/budgets/${budget.id}`);
    const limit = await api("POST", "/api/rate-limits", { scope: "key", scope_id: apiKeyId, window_seconds: 60, requests_per_window: 3 });
    expect(limit.status).toBe(201);
    await page.goto(`${stack.dashboardUrl}/rate-limits`);
    const row = page.getByTestId(`rate-limit-${limit.body.id}`);
    await row.getByText("0 / 3").waitFor();
    expect(await row.textContent()).toContain("3 left");

    const statuses: number[] = [];
    for (let index = 0; index < 5; index++) statuses.push((await chat()).status);
    expect(statuses).toEqual([200, 200, 200, 429, 429]);
    await page.reload();
    await row.getByText("3 / 3").waitFor();
    expect(await row.textContent()).toContain("0 left");
    expect(await page.getByTestId("rate-limit-source").textContent()).toContain("refused calls do not count");
    expect(consoleErrors).toEqual([]);
  });
});
