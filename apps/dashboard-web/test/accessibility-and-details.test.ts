import type { Browser, BrowserContext, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { describeAccessibilityViolations as seriousViolations } from "./support/check-accessibility.js";
import { chromiumAvailable, launchChromium } from "./support/launch-chromium.js";
import { startLocalSmtpServer } from "./support/local-smtp-server.js";
import { type GatewayStack, startGatewayStack } from "./support/start-gateway-stack.js";

/**
 * The dashboard's details in a real Chromium against what `pnpm start` runs: axe finds no serious
 * violation on any screen, every screen names its tab, dialogs start on their first field, form
 * errors land on their field, a single-point latency series is drawn, an expired session asks to
 * sign in again and keeps the form, the new-key snippet names the gateway, the audit filter
 * matches prefixes.
 */
describe.skipIf(!chromiumAvailable)("the dashboard in the browser: accessibility and details", () => {
  let smtp: Awaited<ReturnType<typeof startLocalSmtpServer>>;
  let stack: GatewayStack;
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  let ownerCookie: string;
  const consoleErrors: string[] = [];

  const api = async (method: string, path: string, body?: unknown) => {
    const response = await fetch(`${stack.dashboardUrl}${path}`, {
      method,
      headers: { cookie: ownerCookie, origin: stack.dashboardUrl, ...(body === undefined ? {} : { "content-type": "application/json" }) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await response.text();
    if (!response.ok) throw new Error(`${method} ${path}: ${response.status} ${text}`);
    return text === "" ? null : JSON.parse(text);
  };
  const go = (path: string) => page.goto(`${stack.dashboardUrl}${path}`);
  const signIn = async () => {
    await go("/login");
    await page.getByLabel("Email").fill(stack.adminEmail);
    await page.getByLabel("Password").fill(stack.adminPassword);
    await page.getByRole("button", { name: "Sign in" }).click();
    await page.getByRole("heading", { level: 1, name: /^Welcome/ }).waitFor();
  };

  beforeAll(async () => {
    smtp = await startLocalSmtpServer();
    [stack, browser] = await Promise.all([startGatewayStack({ smtpUrl: smtp.url }), launchChromium()]);
    const login = await fetch(`${stack.dashboardUrl}/v1/auth/login`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ email: stack.adminEmail, password: stack.adminPassword }) });
    ownerCookie = login.headers.get("set-cookie")!.split(";")[0]!;
    const session = await login.json();
    // Something on every screen: a policy (guardrails), one gateway call (usage, latency), audit events.
    await api("POST", "/api/policies", { name: "org policy", scope: "organization", scope_id: session.organization.id });
    const project = (await api("GET", "/api/projects")).data[0];
    const key = await api("POST", "/api/api-keys", { name: "details key", project_id: project.id });
    const chat = await fetch(`${stack.gatewayUrl}/v1/chat/completions`, {
      method: "POST",
      headers: { authorization: `Bearer ${key.secret}`, "content-type": "application/json" },
      body: JSON.stringify({ model: "demo/demo/chat", messages: [{ role: "user", content: "one call for the latency chart" }] }),
    });
    expect(chat.status).toBe(200);
    context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    page = await context.newPage();
    page.on("console", (message) => {
      if (message.type() === "error" && !message.text().startsWith("Failed to load resource")) consoleErrors.push(message.text());
    });
    page.on("pageerror", (error) => consoleErrors.push(String(error)));
  });
  afterAll(async () => {
    await browser?.close();
    await stack?.close();
    await smtp?.close();
  });

  // One axe run per screen (about twenty): several seconds each on a loaded 2-core machine.
  it("has no serious accessibility violation and a title of its own on any screen", { timeout: 240_000 }, async () => {
    await go("/login");
    await page.getByRole("heading", { level: 1, name: "Sign in" }).waitFor();
    expect(await page.title()).toBe("Sign in · AI Gateway");
    expect(await seriousViolations(page), "/login").toEqual([]);
    await go("/invitations/accept?token=inv_unknown");
    await page.getByRole("heading", { level: 1 }).waitFor();
    expect(await seriousViolations(page), "/invitations/accept").toEqual([]);

    const encodings = new Map<string, string>();
    const onResponse = (response: import("playwright-core").Response) => {
      if (new URL(response.url()).pathname.startsWith("/assets/")) encodings.set(new URL(response.url()).pathname, response.headers()["content-encoding"] ?? "none");
    };
    page.on("response", onResponse);
    await signIn();
    const navigation = page.getByRole("navigation", { name: "Main" });
    const paths = await navigation.getByRole("link").evaluateAll((links) => links.map((link) => new URL((link as HTMLAnchorElement).href).pathname));
    expect(paths.length).toBeGreaterThanOrEqual(19);
    const titles = new Map<string, string>();
    for (const path of [...paths, "/no-such-page"]) {
      await go(path);
      await page.getByRole("heading", { level: 1 }).waitFor();
      await page.waitForLoadState("networkidle");
      // Loading placeholders gone: the screen as a person reads it.
      await page.locator(".loading").first().waitFor({ state: "detached" });
      expect(await seriousViolations(page), path).toEqual([]);
      titles.set(path, await page.title());
    }
    // On a phone-sized window wide tables scroll inside their box: the box must be reachable from the keyboard.
    await page.setViewportSize({ width: 390, height: 844 });
    for (const path of ["/usage", "/api-keys", "/audit", "/guardrails"]) {
      await go(path);
      await page.getByRole("heading", { level: 1 }).waitFor();
      await page.waitForLoadState("networkidle");
      await page.locator(".loading").first().waitFor({ state: "detached" });
      expect(await seriousViolations(page), `${path} at 390 px`).toEqual([]);
    }
    await page.setViewportSize({ width: 1280, height: 900 });
    page.off("response", onResponse);
    // The build's brotli twins reached the browser (scripts and styles, the lazily loaded usage screen too).
    expect([...encodings.keys()].filter((path) => /\.(js|css)$/.test(path)).length).toBeGreaterThanOrEqual(3);
    for (const [path, encoding] of encodings) if (/\.(js|css)$/.test(path)) expect(encoding, path).toBe("br");
    const distinct = new Set(titles.values());
    expect(distinct.size, JSON.stringify(Object.fromEntries(titles))).toBe(titles.size);
    expect(titles.get("/")).toBe("Overview · AI Gateway");
    expect(titles.get("/api-keys")).toBe("API keys · AI Gateway");
    for (const title of titles.values()) expect(title).toMatch(/^\S.* · AI Gateway$/);
  });

  it("starts each dialog on its first field, and has no serious violation with it open", async () => {
    for (const [path, button, dialogName, firstField] of [
      ["/api-keys", "Create API key", "Create API key", "Name"],
      ["/connections", "Add connection", "Add connection", "Name"],
      ["/budgets", "Create budget", "Create budget", "Name"],
      ["/guardrails", "Add rule", "Add guardrail", "Type"],
    ] as const) {
      await go(path);
      await page.getByRole("button", { name: button }).first().click();
      const dialog = page.getByRole("dialog", { name: dialogName });
      await dialog.waitFor();
      const focused = await page.evaluate(() => {
        const element = document.activeElement as HTMLElement | null;
        return { tag: element?.tagName.toLowerCase(), label: element?.id ? document.querySelector(`label[for="${CSS.escape(element.id)}"]`)?.textContent : null };
      });
      expect(["input", "select", "textarea"], `${path}: ${JSON.stringify(focused)}`).toContain(focused.tag);
      expect(focused.label, path).toBe(firstField);
      expect(await seriousViolations(page), `${path} with the dialog open`).toEqual([]);
      await page.keyboard.press("Escape");
      await dialog.waitFor({ state: "hidden" });
    }
  });

  it("puts a guardrail rule's errors on its fields, not under Type", async () => {
    await go("/guardrails");
    await page.getByRole("button", { name: "Add rule" }).click();
    const dialog = page.getByRole("dialog", { name: "Add guardrail" });
    const type = dialog.getByLabel("Type");
    // A regular expression without its (required) name.
    await type.selectOption("regex");
    await dialog.getByLabel("Pattern").fill("TICKET-[0-9]{4,8}");
    await dialog.getByRole("button", { name: "Add rule" }).click();
    const name = dialog.getByLabel("Name", { exact: true });
    await name.and(page.locator('[aria-invalid="true"]')).waitFor();
    expect(await type.getAttribute("aria-invalid")).toBe("false");
    expect(await dialog.textContent()).not.toContain("Not a valid choice.");
    const nameError = await name.getAttribute("aria-describedby");
    expect(await page.locator(`[id="${nameError!.split(" ").at(-1)}"]`).textContent()).toBe("Required.");
    // Blocked terms without any term: the error is under Terms.
    await type.selectOption("blocked_terms");
    await dialog.getByRole("button", { name: "Add rule" }).click();
    const terms = dialog.getByLabel("Terms");
    await terms.and(page.locator('[aria-invalid="true"]')).waitFor();
    expect(await type.getAttribute("aria-invalid")).toBe("false");
    expect(await dialog.textContent()).toContain("Add at least 1.");
    await page.keyboard.press("Escape");
  });

  it("draws a latency series of a single hour", async () => {
    await go("/usage");
    const chart = page.getByTestId("latency-chart");
    await chart.waitFor();
    // Usage events reach the database within about a second of the call: refresh until the call is in.
    for (let attempt = 0; attempt < 20 && !/[1-9]\d* calls?,/.test((await chart.getAttribute("aria-label")) ?? ""); attempt += 1) {
      await page.waitForTimeout(250);
      await page.getByRole("button", { name: "Refresh" }).click();
    }
    expect(await chart.getAttribute("aria-label")).toMatch(/: 1 call, 0 errors$/);
    // One hour with calls: no line can be drawn, so each series shows its single point.
    await chart.locator(".recharts-line-dots circle").first().waitFor();
    expect(await chart.locator(".recharts-line-dots circle").count()).toBeGreaterThanOrEqual(2);
  });

  it("shows the new key's snippet with the gateway's address", async () => {
    await go("/api-keys");
    await page.getByRole("button", { name: "Create API key" }).click();
    const dialog = page.getByRole("dialog", { name: "Create API key" });
    await dialog.getByLabel("Name").fill("snippet key");
    await dialog.getByRole("button", { name: "Create key" }).click();
    const shown = page.getByRole("dialog", { name: "Your new API key" });
    const snippet = (await shown.getByTestId("new-api-key-snippet").textContent()) ?? "";
    expect(snippet).toContain(`curl "${stack.gatewayUrl}/v1/models"`);
    await shown.getByRole("button", { name: "Done" }).click();
  });

  it("says when the session expired, and keeps the form to send again after signing in", async () => {
    await go("/api-keys");
    await page.getByRole("button", { name: "Create API key" }).click();
    const dialog = page.getByRole("dialog", { name: "Create API key" });
    await dialog.getByLabel("Name").fill("typed before the session ended");
    // The session ends on the server (as at its expiry, or signed out elsewhere).
    const cookie = (await context.cookies(stack.dashboardUrl)).find((candidate) => candidate.name === "gateway_session")!;
    const loggedOut = await fetch(`${stack.dashboardUrl}/v1/auth/logout`, { method: "POST", headers: { cookie: `${cookie.name}=${cookie.value}`, origin: stack.dashboardUrl } });
    expect(loggedOut.status).toBe(204);
    await dialog.getByRole("button", { name: "Create key" }).click();
    const expired = page.getByRole("dialog", { name: "Your session has expired" });
    await expired.waitFor();
    expect(page.url()).toBe(`${stack.dashboardUrl}/api-keys`);
    expect(await dialog.getByLabel("Name").inputValue()).toBe("typed before the session ended");
    await expired.getByLabel("Password").fill(stack.adminPassword);
    await expired.getByRole("button", { name: "Sign in", exact: true }).click();
    await expired.waitFor({ state: "hidden" });
    expect(await dialog.getByLabel("Name").inputValue()).toBe("typed before the session ended");
    await dialog.getByRole("button", { name: "Create key" }).click();
    const shown = page.getByRole("dialog", { name: "Your new API key" });
    await shown.waitFor();
    await shown.getByRole("button", { name: "Done" }).click();
    await page.getByRole("row", { name: /typed before the session ended/ }).waitFor();
  });

  it("filters the audit log by the start of an action, with one empty state when nothing matches", async () => {
    await go("/audit");
    const action = page.getByLabel("Action");
    await action.fill("api_key");
    const table = page.getByRole("table", { name: "Audit events" });
    await table.getByText("api_key.created").first().waitFor();
    const actions = await table.locator("tbody tr td:nth-child(3)").allTextContents();
    expect(actions.length).toBeGreaterThan(0);
    for (const value of actions) expect(value.startsWith("api_key")).toBe(true);
    await action.fill("no_such_action");
    await page.getByRole("heading", { name: "No events match these filters" }).waitFor();
    expect(await page.getByRole("heading", { name: "Nothing recorded yet" }).count()).toBe(0);
    await page.getByRole("button", { name: "Clear the filters" }).click();
    await table.waitFor();
    expect(await action.inputValue()).toBe("");
  });

  it("greys disabled fields, and keeps a notice's sentence with a name in bold on one line", async () => {
    await go("/policies");
    await page.getByRole("button", { name: "Create policy" }).first().click();
    const dialog = page.getByRole("dialog", { name: "Create policy" });
    // An organization policy applies to the signed-in organization: that field is fixed.
    const enabled = dialog.getByLabel("Applies to");
    const disabled = dialog.getByRole("combobox", { name: "Organization" });
    expect(await disabled.isDisabled()).toBe(true);
    const look = (element: Element) => {
      const style = getComputedStyle(element);
      return { background: style.backgroundColor, color: style.color, cursor: style.cursor };
    };
    const [enabledLook, disabledLook] = [await enabled.evaluate(look), await disabled.evaluate(look)];
    expect(disabledLook.cursor).toBe("not-allowed");
    expect(disabledLook.background).not.toBe(enabledLook.background);
    expect(disabledLook.color).not.toBe(enabledLook.color);
    await page.keyboard.press("Escape");

    await go("/members");
    await page.getByRole("button", { name: "Invite member" }).click();
    const invite = page.getByRole("dialog", { name: "Invite member" });
    await invite.getByLabel("Email").fill("ada@example.com");
    await invite.getByRole("button", { name: "Send invitation" }).click();
    const notice = page.getByRole("dialog", { name: "Invitation created" }).locator(".notice");
    await notice.getByText("An email with the link went to").waitFor();
    // "An email with the link went to <strong>ada@example.com</strong>." reads as one line, not three.
    const lines = await notice.evaluate((element) => {
      const range = document.createRange();
      range.selectNodeContents(element.firstChild!);
      return { text: Math.round(range.getClientRects()[0]!.top), bold: Math.round(element.querySelector("strong")!.getBoundingClientRect().top) };
    });
    expect(Math.abs(lines.text - lines.bold)).toBeLessThanOrEqual(2);
    await page.getByRole("button", { name: "Done" }).click();
  });

  it("met no script error or policy complaint on the way", () => {
    expect(consoleErrors).toEqual([]);
  });
});
