import { createServer, type IncomingMessage, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";
import { createDatabase, writeUsageBatch } from "@gateway/db";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { describeAccessibilityViolations } from "./support/check-accessibility.js";
import { chromiumAvailable, launchChromium } from "./support/launch-chromium.js";
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
  const consoleErrors: string[] = [];
  const forbidden: string[] = [];

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
    [stack, browser] = await Promise.all([startGatewayStack({ smtpUrl: null }), launchChromium()]);
    const login = await fetch(`${stack.dashboardUrl}/v1/auth/login`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ email: stack.adminEmail, password: stack.adminPassword }) });
    cookie = login.headers.get("set-cookie")!.split(";")[0]!;
    organizationId = ((await login.json()) as { organization: { id: string } }).organization.id;
    projectId = (await dashboardApi("GET", "/api/projects")).data[0].id;
    key = await dashboardApi("POST", "/api/api-keys", { name: "checkout-prod", project_id: projectId });
    await dashboardApi("POST", "/api/notification-channels", { name: "on-call hook", config: { kind: "webhook", url: webhook.url, secret: "a-signing-secret-of-some-length" } });

    page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
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
    await webhook?.close();
  });

  const row = () => page.getByTestId("monitor-Checkout errors");

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
    await page.screenshot({ path: "/tmp/h-monitors-web-list.png", fullPage: true });
    await row().getByRole("button", { name: "History of Checkout errors" }).click();
    await page.getByRole("dialog", { name: "Checkout errors" }).getByTestId("monitor-event").first().waitFor();
    await page.screenshot({ path: "/tmp/h-monitors-web-drawer.png" });
    await page.getByRole("dialog", { name: "Checkout errors" }).getByRole("button", { name: "Close" }).click();
    await row().getByRole("button", { name: "Edit" }).click();
    await page.screenshot({ path: "/tmp/h-monitors-web-edit.png" });
  });
});
