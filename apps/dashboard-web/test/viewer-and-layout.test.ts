import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { chromiumAvailable, launchChromium } from "./support/launch-chromium.js";
import { invitationLinkFrom, startLocalSmtpServer } from "./support/local-smtp-server.js";
import { type GatewayStack, startGatewayStack } from "./support/start-gateway-stack.js";

/** Buttons that change something; a viewer must see none of them. */
const changingAction = /^(Create|Add|Invite|Register|Edit|Delete|Revoke|Test|Send test|Connect|Reconnect|Change|Remove|Resend|Save)\b/;

/**
 * A viewer in a real Chromium: reads every screen it may read, sees no action it may not take,
 * never triggers a 403; plus the layout on a narrow window and keyboard navigation.
 */
describe.skipIf(!chromiumAvailable)("the dashboard in the browser: a viewer, a narrow window, the keyboard", () => {
  let smtp: Awaited<ReturnType<typeof startLocalSmtpServer>>;
  let stack: GatewayStack;
  let browser: Browser;
  let page: Page;
  const viewer = { email: "viewer@example.com", password: "a viewer passphrase" };
  const forbidden: string[] = [];

  beforeAll(async () => {
    smtp = await startLocalSmtpServer();
    [stack, browser] = await Promise.all([startGatewayStack({ smtpUrl: smtp.url }), launchChromium()]);
    // The owner invites a viewer through the API; the viewer accepts through the API too (the browser journey is the owner suite's).
    const login = await fetch(`${stack.dashboardUrl}/v1/auth/login`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ email: stack.adminEmail, password: stack.adminPassword }) });
    const cookie = login.headers.get("set-cookie")!.split(";")[0]!;
    const invited = await fetch(`${stack.dashboardUrl}/api/invitations`, {
      method: "POST",
      headers: { "content-type": "application/json", cookie, origin: stack.dashboardUrl },
      body: JSON.stringify({ email: viewer.email, role: "viewer" }),
    });
    expect(invited.status).toBe(201);
    const token = new URL(invitationLinkFrom(smtp.received.at(-1)!.raw)).searchParams.get("token");
    const accepted = await fetch(`${stack.dashboardUrl}/v1/auth/invitations/accept`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ token, name: "Vera Viewer", password: viewer.password }) });
    expect(accepted.status).toBe(200);
    page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    page.on("response", (response) => {
      if (response.status() === 403) forbidden.push(`${response.request().method()} ${response.url()}`);
    });
  });
  afterAll(async () => {
    await browser?.close();
    await stack?.close();
    await smtp?.close();
  });

  it("shows a viewer what it may read and none of the admin actions", async () => {
    await page.goto(`${stack.dashboardUrl}/login`);
    await page.getByLabel("Email").fill(viewer.email);
    await page.getByLabel("Password").fill(viewer.password);
    await page.getByRole("button", { name: "Sign in" }).click();
    await page.getByRole("heading", { name: "Welcome, Vera Viewer" }).waitFor();
    expect(await page.getByTestId("signed-in-user").textContent()).toContain("Viewer");
    const navigation = page.getByRole("navigation", { name: "Main" });
    const links = await navigation.getByRole("link").allTextContents();
    expect(links).toEqual(expect.arrayContaining(["Overview", "Usage", "API keys", "Connections", "Budgets", "Members", "MCP servers"]));
    // No playground (playground:use) and no audit log (audit:read) for viewers.
    expect(links).not.toContain("Playground");
    expect(links).not.toContain("Audit log");

    for (const link of links) {
      await navigation.getByRole("link", { name: link, exact: true }).click();
      await page.getByRole("heading", { level: 1 }).waitFor();
      await page.waitForLoadState("networkidle");
      const actions = (await page.getByRole("main").getByRole("button").allTextContents()).map((text) => text.trim()).filter((text) => changingAction.test(text));
      expect(actions, `actions on ${link}`).toEqual([]);
    }
    // The seeded key and connection are listed, read-only.
    await navigation.getByRole("link", { name: "API keys" }).click();
    await page.getByRole("row", { name: /Default key/ }).waitFor();
  });

  it("explains a page the role may not open instead of calling the API", async () => {
    const audit: string[] = [];
    page.on("request", (request) => {
      if (request.url().includes("/api/audit-events")) audit.push(request.url());
    });
    await page.goto(`${stack.dashboardUrl}/audit`);
    await page.getByText("Not available to your role").waitFor();
    await page.goto(`${stack.dashboardUrl}/playground`);
    await page.getByText("Not available to your role").waitFor();
    expect(audit).toEqual([]);
    expect(forbidden).toEqual([]);
  });

  it("fits a narrow window: the navigation folds into a menu", async () => {
    await page.setViewportSize({ width: 390, height: 844 });
    await page.goto(`${stack.dashboardUrl}/budgets`);
    await page.getByRole("heading", { level: 1, name: "Budgets" }).waitFor();
    const navigation = page.getByRole("navigation", { name: "Main" });
    expect(await navigation.isVisible()).toBe(false);
    // Nothing wider than the window (wide tables scroll inside their own box).
    for (const path of ["/budgets", "/api-keys", "/connections", "/members"]) {
      await page.goto(`${stack.dashboardUrl}${path}`);
      await page.getByRole("heading", { level: 1 }).waitFor();
      await page.waitForLoadState("networkidle");
      expect(await page.evaluate(() => document.documentElement.scrollWidth), path).toBeLessThanOrEqual(390);
    }
    await page.getByRole("button", { name: "Menu" }).click();
    expect(await navigation.isVisible()).toBe(true);
    await navigation.getByRole("link", { name: "Connections" }).click();
    await page.getByRole("heading", { level: 1, name: "Connections" }).waitFor();
    expect(await navigation.isVisible()).toBe(false);
  });

  it("works from the keyboard: a skip link to the content, labelled fields, sign out", async () => {
    await page.setViewportSize({ width: 1280, height: 900 });
    await page.goto(`${stack.dashboardUrl}/models`);
    await page.getByRole("heading", { level: 1, name: "Models" }).waitFor();
    await page.keyboard.press("Tab");
    expect(await page.evaluate(() => document.activeElement?.textContent)).toBe("Skip to content");
    await page.keyboard.press("Enter");
    expect(await page.evaluate(() => document.activeElement?.id)).toBe("content");
    // The filter is a labelled field reached with Tab; typing filters the list.
    await page.getByLabel("Filter").focus();
    await page.keyboard.type("decide");
    expect(await page.getByRole("table", { name: "Models" }).textContent()).toContain("demo/demo/decide");
    expect(await page.getByRole("table", { name: "Models" }).textContent()).not.toContain("demo/demo/chat");
    // Sign out from the keyboard.
    await page.getByRole("button", { name: "Sign out" }).focus();
    await page.keyboard.press("Enter");
    await page.waitForURL(/\/login$/);
  });
});
