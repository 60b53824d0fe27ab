import type { Browser, BrowserContext, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { chromiumAvailable, launchChromium } from "./support/launch-chromium.js";
import { startLocalAuthorizationServer } from "./support/local-authorization-server.js";
import { startLocalProvider } from "./support/local-provider.js";
import { invitationLinkFrom, startLocalSmtpServer } from "./support/local-smtp-server.js";
import { type GatewayStack, startGatewayStack } from "./support/start-gateway-stack.js";

/**
 * The owner's first session in a real Chromium against what `pnpm start` runs (gateway, dashboard
 * API and web app in one process on a fresh database): sign in, create a key and call the gateway
 * with it, revoke it and see the gateway refuse it, add a connection and test it, set a budget,
 * invite a member over real SMTP who accepts, chat in the playground with a streamed answer,
 * connect an MCP server over OAuth, and find the calls in the usage chart.
 */
describe.skipIf(!chromiumAvailable)("the dashboard in the browser: an owner's first session", () => {
  let smtp: Awaited<ReturnType<typeof startLocalSmtpServer>>;
  let provider: Awaited<ReturnType<typeof startLocalProvider>>;
  let authorization: Awaited<ReturnType<typeof startLocalAuthorizationServer>>;
  let stack: GatewayStack;
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  let secret: string;
  const forbidden: string[] = [];
  const consoleErrors: string[] = [];

  beforeAll(async () => {
    [smtp, provider, authorization] = await Promise.all([startLocalSmtpServer(), startLocalProvider(), startLocalAuthorizationServer()]);
    [stack, browser] = await Promise.all([startGatewayStack({ smtpUrl: smtp.url }), launchChromium()]);
    context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    await context.grantPermissions(["clipboard-read", "clipboard-write"], { origin: stack.dashboardUrl });
    page = await context.newPage();
    // The web app hides what the role may not do: no call it makes may end in a 403.
    page.on("response", (response) => {
      if (response.status() === 403) forbidden.push(`${response.request().method()} ${response.url()}`);
    });
    // Script errors and content-security-policy violations (answers with an error status are reported separately).
    page.on("console", (message) => {
      if (message.type() === "error" && !message.text().startsWith("Failed to load resource")) consoleErrors.push(message.text());
    });
    page.on("pageerror", (error) => consoleErrors.push(String(error)));
  });
  afterAll(async () => {
    await browser?.close();
    await stack?.close();
    await Promise.all([smtp?.close(), provider?.close(), authorization?.close()]);
  });

  const gateway = (path: string, init: RequestInit & { key: string }) =>
    fetch(`${stack.gatewayUrl}${path}`, { ...init, headers: { authorization: `Bearer ${init.key}`, "content-type": "application/json", ...init.headers } });
  const go = (path: string) => page.goto(`${stack.dashboardUrl}${path}`);

  it("signs in on first visit and lands on the overview", async () => {
    await go("/api-keys");
    await page.waitForURL(/\/login$/);
    await page.getByRole("button", { name: "Sign in" }).click();
    // Validated in the browser with the API's own rules before anything is sent.
    await expect(page.getByText("Required.").first().isVisible()).resolves.toBe(true);
    await page.getByLabel("Email").fill(stack.adminEmail);
    await page.getByLabel("Password").fill("not the password");
    await page.getByRole("button", { name: "Sign in" }).click();
    const refused = page.getByRole("alert");
    await refused.waitFor();
    expect(await refused.textContent()).toMatch(/invalid_credentials.*request id req_/);
    await page.getByLabel("Password").fill(stack.adminPassword);
    await page.getByRole("button", { name: "Sign in" }).click();
    // Back where the person wanted to go.
    await page.getByRole("heading", { name: "API keys" }).waitFor();
    expect(await page.getByTestId("signed-in-user").textContent()).toContain("Owner");
  });

  it("creates an API key, shows its secret once with a copy button, and the gateway accepts it", async () => {
    await page.getByRole("button", { name: "Create API key" }).click();
    const dialog = page.getByRole("dialog", { name: "Create API key" });
    await dialog.getByLabel("Name").fill("e2e key");
    await dialog.getByRole("button", { name: "Create key" }).click();
    const shown = page.getByRole("dialog", { name: "Your new API key" });
    secret = (await shown.getByTestId("new-api-key-secret").textContent()) ?? "";
    expect(secret).toMatch(/^gak_[A-Za-z0-9]{43}$/);
    await shown.getByRole("button", { name: "Copy key" }).click();
    await shown.getByText("Copied").waitFor();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(secret);
    await shown.getByRole("button", { name: "Done" }).click();
    const row = page.getByRole("row", { name: /e2e key/ });
    await row.waitFor();
    expect(await row.textContent()).toContain(secret.slice(-4));
    // The secret is never shown again.
    expect(await page.content()).not.toContain(secret);

    const models = await gateway("/v1/models", { key: secret });
    expect(models.status).toBe(200);
    const chat = await gateway("/v1/chat/completions", { key: secret, method: "POST", body: JSON.stringify({ model: "demo/demo/chat", messages: [{ role: "user", content: "Hi from the e2e key" }] }) });
    expect(chat.status, await chat.clone().text()).toBe(200);
  });

  it("revokes the key after a confirmation, and the gateway refuses it", async () => {
    await page.getByRole("button", { name: "Revoke e2e key" }).click();
    const confirm = page.getByRole("dialog", { name: "Revoke this API key?" });
    await confirm.getByRole("button", { name: "Revoke key" }).click();
    await page.getByRole("row", { name: /e2e key.*revoked/ }).waitFor();
    const refused = await gateway("/v1/models", { key: secret });
    expect(refused.status).toBe(401);
    expect((await refused.json()).error.code).toBe("invalid_gateway_api_key");
  });

  it("adds a connection with a write-only credential and tests it against the provider", async () => {
    await go("/connections");
    await page.getByRole("button", { name: "Add connection" }).click();
    const dialog = page.getByRole("dialog", { name: "Add connection" });
    await dialog.getByLabel("Name", { exact: true }).fill("local openai");
    await dialog.getByLabel("Base URL").fill(provider.url);
    await dialog.getByLabel("API key (write-only)").fill("sk-e2e-provider-credential");
    await dialog.getByLabel("Models").fill("vendor/gpt-test");
    await dialog.getByRole("button", { name: "Add connection" }).click();
    // The API's rule for connection names (the <provider> segment of model ids), checked before sending.
    await dialog.getByText("Not in the expected format.").waitFor();
    await dialog.getByLabel("Name", { exact: true }).fill("local-openai");
    await dialog.getByRole("button", { name: "Add connection" }).click();
    const row = page.getByRole("row", { name: /local-openai/ });
    await row.waitFor();
    expect(await row.textContent()).toContain("stored");
    await row.getByRole("button", { name: "Test local-openai" }).click();
    await page.getByTestId("connection-test-local-openai").getByText("test passed").waitFor();
    expect(provider.requests.at(-1)).toEqual({ path: "/v1/models", authorization: "Bearer sk-e2e-provider-credential" });
    // Write-only: the edit form never holds the stored credential.
    await row.getByRole("button", { name: "Edit local-openai" }).click();
    const edit = page.getByRole("dialog", { name: "Edit local-openai" });
    expect(await edit.getByLabel("New API key (write-only)").inputValue()).toBe("");
    expect(await page.content()).not.toContain("sk-e2e-provider-credential");
    // Keyboard: Escape closes the dialog and gives focus back to the button that opened it.
    await page.keyboard.press("Escape");
    await edit.waitFor({ state: "hidden" });
    expect(await page.evaluate(() => document.activeElement?.getAttribute("aria-label"))).toBe("Edit local-openai");
  });

  it("creates a budget, refusing a malformed amount first, and shows its current spend", async () => {
    await go("/budgets");
    await page.getByRole("button", { name: "Create budget" }).click();
    const dialog = page.getByRole("dialog", { name: "Create budget" });
    await dialog.getByLabel("Name").fill("e2e monthly");
    await dialog.getByLabel("Amount (USD)").fill("twenty");
    await dialog.getByRole("button", { name: "Create budget" }).click();
    await dialog.getByText("Enter an amount in dollars, e.g. 25 or 0.50.").waitFor();
    await dialog.getByLabel("Amount (USD)").fill("25");
    await dialog.getByRole("button", { name: "Create budget" }).click();
    const row = page.getByTestId("budget-e2e monthly");
    await row.waitFor();
    expect(await row.textContent()).toContain("$25.00");
    // The current spend arrives with its own query: wait for it rather than the placeholder.
    await row.getByTestId("budget-remaining").filter({ hasText: /^\$/ }).waitFor();
    expect(await row.getByTestId("budget-spent").textContent()).toMatch(/^\$/);
    expect(await row.getByRole("progressbar").count()).toBe(1);
  });

  it("invites a member over SMTP, who accepts in their own browser and signs in as a member", async () => {
    await go("/members");
    await page.getByRole("button", { name: "Invite member" }).click();
    const dialog = page.getByRole("dialog", { name: "Invite member" });
    await dialog.getByLabel("Email").fill("grace@example.com");
    await dialog.getByLabel("Role").selectOption("member");
    await dialog.getByRole("checkbox", { name: "Default project" }).check();
    await dialog.getByRole("button", { name: "Send invitation" }).click();
    await page.getByRole("dialog", { name: "Invitation created" }).getByText("An email with the link went to").waitFor();
    await page.getByRole("button", { name: "Done" }).click();
    const row = page.getByTestId("invitation-grace@example.com");
    expect(await row.textContent()).toMatch(/pending.*sent/);
    expect(smtp.received.map((mail) => mail.to)).toEqual([["grace@example.com"]]);
    // Resend: a new email with a new link (the first one dies).
    await row.getByRole("button", { name: "Resend the invitation to grace@example.com" }).click();
    await page.getByText("Invitation to grace@example.com sent again.").waitFor();
    expect(smtp.received).toHaveLength(2);
    const link = invitationLinkFrom(smtp.received[1]!.raw);
    expect(link.startsWith(`${stack.dashboardUrl}/invitations/accept?token=`)).toBe(true);

    const grace = await browser.newContext();
    try {
      const invited = await grace.newPage();
      await invited.goto(link);
      await invited.getByLabel("Your name").fill("Grace Hopper");
      await invited.getByLabel("Password").fill("short");
      await invited.getByRole("button", { name: "Accept invitation" }).click();
      await invited.getByText("At least 8 characters.").waitFor();
      await invited.getByLabel("Password").fill("a long passphrase");
      await invited.getByRole("button", { name: "Accept invitation" }).click();
      await invited.getByRole("heading", { name: "Welcome to Default organization" }).waitFor();
      await invited.getByRole("link", { name: "Sign in" }).click();
      expect(await invited.getByLabel("Email").inputValue()).toBe("grace@example.com");
      await invited.getByLabel("Password").fill("a long passphrase");
      await invited.getByRole("button", { name: "Sign in" }).click();
      await invited.getByRole("heading", { name: "Welcome, Grace Hopper" }).waitFor();
      expect(await invited.getByTestId("signed-in-user").textContent()).toContain("Member");
    } finally {
      await grace.close();
    }
    await page.reload();
    expect(await page.getByTestId("invitation-grace@example.com").textContent()).toContain("accepted");
  });

  it("chats in the playground with a streamed answer, its usage and request id", async () => {
    await go("/playground");
    await page.getByLabel("Message").fill("Hello from the playground");
    // Ready once the key and model pickers are filled in (the send button enables).
    await page.getByRole("button", { name: "Send" }).and(page.locator(":enabled")).waitFor();
    const streamed = page.waitForResponse((response) => response.url().endsWith("/api/playground/chat"));
    await page.getByLabel("Message").press("Control+Enter");
    const response = await streamed;
    expect(response.headers()["content-type"]).toMatch(/^text\/event-stream/);
    const answer = page.getByTestId("message-assistant");
    await answer.waitFor();
    expect(await answer.textContent()).toMatch(/\S/);
    const facts = page.getByTestId("call-facts");
    await facts.waitFor();
    expect(await page.getByTestId("playground-request-id").textContent()).toBe(response.headers()["x-request-id"]);
    expect(await page.getByTestId("playground-usage").textContent()).toMatch(/Tokens \d+ in, \d+ out/);
    expect(await facts.textContent()).toMatch(/Model \S+/);
  });

  it("connects an MCP server through the OAuth flow and comes back to the MCP page", async () => {
    await go("/mcp");
    await page.getByRole("button", { name: "Register server" }).click();
    const dialog = page.getByRole("dialog", { name: "Register MCP server" });
    await dialog.getByLabel("Name").fill("tickets");
    await dialog.getByLabel("URL").fill(`${authorization.url}/mcp`);
    await dialog.getByRole("button", { name: "Register" }).click();
    const row = page.getByTestId("mcp-server-tickets");
    await row.getByRole("button", { name: "Connect" }).click();
    // Dashboard -> authorization server (approves) -> dashboard callback -> back to /mcp.
    await page.waitForURL(/\/mcp\?outcome=ok&server_id=/);
    await page.getByText("tickets is authorized").waitFor();
    expect(await row.textContent()).toContain("connected");
    expect(authorization.tokensIssued()).toBe(1);
    expect(await page.getByRole("table", { name: "MCP tokens" }).textContent()).toContain("tickets (OAuth)");
  });

  it("shows the calls made in the usage chart", async () => {
    await go("/usage");
    const chart = page.getByTestId("usage-chart");
    // Usage events reach the database within about a second; refresh until both keys are in.
    for (let attempt = 0; attempt < 20; attempt += 1) {
      const label = (await chart.getAttribute("aria-label")) ?? "";
      if (/e2e key \d/.test(label) && /Default key \d/.test(label)) break;
      await page.waitForTimeout(250);
      await page.getByRole("button", { name: "Refresh" }).click();
    }
    const label = (await chart.getAttribute("aria-label")) ?? "";
    // Two gateway calls with the e2e key (models, chat); one playground chat as the default key.
    expect(label).toMatch(/^Requests per hour by API key: /);
    expect(label).toContain("e2e key 2");
    expect(label).toContain("Default key 1");
    expect(await chart.locator(".recharts-bar-rectangle").count()).toBeGreaterThan(0);
    await page.getByTestId("usage-totals").filter({ hasText: "Requests3" }).waitFor();
    expect(await page.getByRole("table", { name: "Latest calls" }).textContent()).toContain("playground");
  });

  it("never met a 403 or a script error on the way", () => {
    expect(forbidden).toEqual([]);
    expect(consoleErrors).toEqual([]);
  });
});
