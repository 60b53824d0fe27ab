import type { Browser, BrowserContext, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { seriousAccessibilityViolations } from "./support/check-accessibility.js";
import { chromiumAvailable, launchChromium } from "./support/launch-chromium.js";
import { type GatewayStack, startGatewayStack } from "./support/start-gateway-stack.js";

/**
 * What `pnpm start` shows without a mail transport (`SMTP_URL` unset), in a real Chromium: an
 * API key's "Last used" after a gateway call; invitations that say no email was sent and give
 * the owner the link to copy (a viewer never sees it); the sign-in setting without the single
 * sign-on option; and axe finds no serious accessibility violation on these screens.
 */
describe.skipIf(!chromiumAvailable)("the dashboard in the browser: key activity, invitations without mail, sign-in settings", () => {
  let stack: GatewayStack;
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  let cookie: string;
  const forbidden: string[] = [];
  const consoleErrors: string[] = [];

  beforeAll(async () => {
    [stack, browser] = await Promise.all([startGatewayStack({ smtpUrl: null }), launchChromium()]);
    context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    await context.grantPermissions(["clipboard-read", "clipboard-write"], { origin: stack.dashboardUrl });
    page = await context.newPage();
    page.on("response", (response) => {
      if (response.status() === 403) forbidden.push(`${response.request().method()} ${response.url()}`);
    });
    page.on("console", (message) => {
      if (message.type() === "error" && !message.text().startsWith("Failed to load resource")) consoleErrors.push(message.text());
    });
    page.on("pageerror", (error) => consoleErrors.push(String(error)));
    const login = await fetch(`${stack.dashboardUrl}/v1/auth/login`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ email: stack.adminEmail, password: stack.adminPassword }) });
    expect(login.status).toBe(200);
    cookie = login.headers.get("set-cookie")!.split(";")[0]!;
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

  const dashboardApi = (path: string, init: { method?: string; body?: unknown } = {}) =>
    fetch(`${stack.dashboardUrl}${path}`, {
      method: init.method ?? "GET",
      headers: { cookie, origin: stack.dashboardUrl, "content-type": "application/json" },
      ...(init.body === undefined ? {} : { body: JSON.stringify(init.body) }),
    });

  it("shows when an API key was last used, once the gateway accepted a call with it", async () => {
    const projects = (await (await dashboardApi("/api/projects")).json()) as { data: { id: string }[] };
    const created = await dashboardApi("/api/api-keys", { method: "POST", body: { name: "activity key", project_id: projects.data[0]!.id } });
    expect(created.status).toBe(201);
    const key = (await created.json()) as { id: string; secret: string; last_used_at: string | null };
    expect(key.last_used_at).toBeNull();
    await page.goto(`${stack.dashboardUrl}/api-keys`);
    const row = page.getByTestId(`api-key-${key.id}`);
    await row.waitFor();
    const lastUsed = row.getByRole("cell").nth(4);
    expect(await lastUsed.textContent()).toBe("never");

    const before = Date.now();
    const models = await fetch(`${stack.gatewayUrl}/v1/models`, { headers: { authorization: `Bearer ${key.secret}` } });
    expect(models.status).toBe(200);
    // The use is written with the next usage batch (off the request path): reload until it shows.
    for (let attempt = 0; attempt < 40 && (await lastUsed.textContent()) === "never"; attempt += 1) {
      await page.waitForTimeout(250);
      await page.reload();
      await row.waitFor();
    }
    expect(await lastUsed.textContent()).toBe("just now");
    const listed = (await (await dashboardApi(`/api/api-keys/${key.id}`)).json()) as { last_used_at: string };
    expect(Date.parse(listed.last_used_at)).toBeGreaterThanOrEqual(before - 1000);
    expect(Date.parse(listed.last_used_at)).toBeLessThanOrEqual(Date.now());
    // The exact time is in the cell's title.
    expect(await lastUsed.getAttribute("title")).toMatch(/\d{2}:\d{2}/);
    expect(await seriousAccessibilityViolations(page)).toEqual([]);
  });

  it("says no email was sent without a mail transport and lets the owner copy the accept link", async () => {
    await page.goto(`${stack.dashboardUrl}/members`);
    await page.getByRole("button", { name: "Invite member" }).click();
    const dialog = page.getByRole("dialog", { name: "Invite member" });
    await dialog.getByLabel("Email").fill("vera@example.com");
    await dialog.getByLabel("Role").selectOption("viewer");
    await dialog.getByRole("button", { name: "Send invitation" }).click();
    const created = page.getByRole("dialog", { name: "Invitation created" });
    await created.getByText("No email was sent to vera@example.com.").waitFor();
    expect(await created.textContent()).not.toContain("An email with the link went to");
    const link = (await created.getByTestId("invitation-accept-url").textContent()) ?? "";
    expect(link.startsWith(`${stack.dashboardUrl}/invitations/accept?token=inv_`)).toBe(true);
    await created.getByRole("button", { name: "Copy link" }).click();
    await created.getByText("Copied").waitFor();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(link);
    expect(await seriousAccessibilityViolations(page)).toEqual([]);
    await created.getByRole("button", { name: "Done" }).click();

    const row = page.getByTestId("invitation-vera@example.com");
    await row.waitFor();
    expect(await row.textContent()).toMatch(/pending.*failed.*no mail transport configured/);
    expect(await row.textContent()).not.toMatch(/\bsent\b/);
    // Resend: still no email, and a new link to copy (the first one stops working).
    await row.getByRole("button", { name: "Resend the invitation to vera@example.com" }).click();
    const resent = page.getByTestId("resent-invitation");
    await resent.getByText("No email was sent to vera@example.com.").waitFor();
    const newLink = (await resent.getByTestId("invitation-accept-url").textContent()) ?? "";
    expect(newLink).not.toBe(link);
    await resent.getByRole("button", { name: "Copy link" }).click();
    await resent.getByText("Copied").waitFor();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(newLink);
    expect(await seriousAccessibilityViolations(page)).toEqual([]);

    // The copied link works: the viewer accepts with it.
    const vera = await browser.newContext();
    try {
      const invited = await vera.newPage();
      await invited.goto(link);
      await invited.getByLabel("Your name").fill("Vera Viewer");
      await invited.getByLabel("Password").fill("a viewer passphrase");
      await invited.getByRole("button", { name: "Accept invitation" }).click();
      // The first link died with the resend.
      await invited.getByRole("alert").waitFor();
      await invited.goto(newLink);
      await invited.getByLabel("Your name").fill("Vera Viewer");
      await invited.getByLabel("Password").fill("a viewer passphrase");
      await invited.getByRole("button", { name: "Accept invitation" }).click();
      await invited.getByRole("heading", { name: /^Welcome to / }).waitFor();
    } finally {
      await vera.close();
    }
  });

  it("never shows a viewer an invitation's link", async () => {
    const pending = await dashboardApi("/api/invitations", { method: "POST", body: { email: "pending@example.com", role: "member" } });
    expect(pending.status).toBe(201);
    const viewer = await browser.newContext();
    try {
      const viewerPage = await viewer.newPage();
      const viewerForbidden: string[] = [];
      viewerPage.on("response", (response) => {
        if (response.status() === 403) viewerForbidden.push(response.url());
      });
      await viewerPage.goto(`${stack.dashboardUrl}/login`);
      await viewerPage.getByLabel("Email").fill("vera@example.com");
      await viewerPage.getByLabel("Password").fill("a viewer passphrase");
      await viewerPage.getByRole("button", { name: "Sign in" }).click();
      await viewerPage.getByTestId("signed-in-user").waitFor();
      await viewerPage.goto(`${stack.dashboardUrl}/members`);
      const row = viewerPage.getByTestId("invitation-pending@example.com");
      await row.waitFor();
      expect(await row.textContent()).toContain("no mail transport configured");
      expect(await viewerPage.getByRole("button", { name: /Copy link|Resend/ }).count()).toBe(0);
      expect(await viewerPage.getByTestId("invitation-accept-url").count()).toBe(0);
      expect(await viewerPage.content()).not.toContain("token=inv_");
      expect(viewerForbidden).toEqual([]);
    } finally {
      await viewer.close();
    }
  });

  it("offers single sign-on only, which the API refuses until an owner has signed in through single sign-on", async () => {
    await page.goto(`${stack.dashboardUrl}/organization`);
    const signIn = page.getByLabel("Sign-in", { exact: true });
    await signIn.waitFor();
    expect(await signIn.locator("option").allTextContents()).toEqual(["Password", "Single sign-on only"]);
    // Nothing is configured here, so no one could sign in with it: the API refuses, with the reason.
    const refused = await dashboardApi("/api/organization", { method: "PATCH", body: { authentication_required: "sso" } });
    expect(refused.status).toBe(400);
    const body = (await refused.json()) as { error: { message: string; details: { param: string } } };
    expect(body.error.details.param).toBe("authentication_required");
    expect(body.error.message).toMatch(/single sign-on/i);
    expect(await seriousAccessibilityViolations(page)).toEqual([]);
  });

  it("never met a 403 or a script error on the way", () => {
    expect(forbidden).toEqual([]);
    expect(consoleErrors).toEqual([]);
  });
});
