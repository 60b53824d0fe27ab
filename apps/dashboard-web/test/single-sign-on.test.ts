import type { Browser, BrowserContext, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { seriousAccessibilityViolations } from "./support/check-accessibility.js";
import { chromiumAvailable, launchChromium } from "./support/launch-chromium.js";
import { startLocalOpenIdProvider } from "./support/local-openid-provider.js";
import { type GatewayStack, startGatewayStack } from "./support/start-gateway-stack.js";

/**
 * Single sign-on in a real Chromium against what `pnpm start` runs: the owner configures an
 * OpenID provider (oidc-provider on 127.0.0.1), tests it from Settings and sees the claims; a new
 * person continues with single sign-on from the sign-in page, signs in on the provider's own
 * login page, and lands on the dashboard as the member their groups map to.
 */
describe.skipIf(!chromiumAvailable)("the dashboard in the browser: single sign-on", () => {
  let stack: GatewayStack;
  let provider: Awaited<ReturnType<typeof startLocalOpenIdProvider>>;
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  const outside: string[] = [];

  beforeAll(async () => {
    [stack, browser] = await Promise.all([startGatewayStack({ smtpUrl: null }), launchChromium()]);
    provider = await startLocalOpenIdProvider({
      client: { client_id: "gateway-dashboard", client_secret: "browser-test-client-secret", redirect_uri: `${stack.dashboardUrl}/v1/auth/sso/callback` },
      accounts: {
        "grace@acme.test": { email: "grace@acme.test", name: "Grace Hopper", groups: ["gateway-admins"] },
        [stack.adminEmail]: { email: stack.adminEmail, name: "Admin", groups: [] },
      },
    });
    context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    // Only this machine: the provider's page links a web font, which is refused here.
    await context.route("**/*", (route) => {
      const host = new URL(route.request().url()).hostname;
      if (host === "127.0.0.1" || host === "localhost") return route.continue();
      outside.push(host);
      return route.abort();
    });
    page = await context.newPage();
  });
  afterAll(async () => {
    await browser?.close();
    await stack?.close();
    await provider?.close();
  });

  it("lets the owner configure single sign-on and test it: the claims received are shown", async () => {
    await page.goto(`${stack.dashboardUrl}/login`);
    await page.getByLabel("Email").fill(stack.adminEmail);
    await page.getByLabel("Password").fill(stack.adminPassword);
    await page.getByRole("button", { name: "Sign in", exact: true }).click();
    await page.getByTestId("signed-in-user").waitFor();
    await page.goto(`${stack.dashboardUrl}/organization`);
    const form = page.getByRole("form", { name: "Single sign-on settings" });
    await form.getByLabel("Issuer URL").fill(provider.issuer);
    await form.getByLabel("Client ID").fill("gateway-dashboard");
    await form.getByLabel("Client secret").fill("browser-test-client-secret");
    await form.getByLabel("Scopes").fill("openid email profile groups");
    await form.getByLabel("Allowed email domains").fill("acme.test, gateway.local");
    await form.getByLabel("Groups to roles").fill("gateway-admins = admin");
    await form.getByLabel("Create members at their first sign-in (just-in-time provisioning)").check();
    await form.getByRole("button", { name: "Save single sign-on" }).click();
    await page.getByRole("button", { name: "Test sign-in" }).waitFor();
    await page.getByRole("button", { name: "Test sign-in" }).click();
    // The provider's own login page.
    await page.locator('input[name="login"]').waitFor();
    await page.locator('input[name="login"]').fill("grace@acme.test");
    await page.locator('input[name="password"]').fill("any password");
    await page.locator('button[type="submit"]').click();
    const result = page.getByRole("status", { name: "Test sign-in result" });
    await result.waitFor();
    expect(await result.textContent()).toContain("grace@acme.test would sign in as admin");
    expect(await page.getByTestId("sso-claims").textContent()).toContain('"groups"');
    // A test run signs nobody in: still the owner.
    expect(await page.getByTestId("signed-in-user").textContent()).toContain("Owner");
  });

  it("signs a new person in through the provider's login page and lands on the dashboard", async () => {
    await context.clearCookies();
    await page.goto(`${stack.dashboardUrl}/login`);
    await page.getByLabel("Email").fill("grace@acme.test");
    expect(await seriousAccessibilityViolations(page)).toEqual([]);
    await page.getByRole("button", { name: "Continue with single sign-on" }).click();
    await page.locator('input[name="login"]').waitFor();
    expect(new URL(page.url()).origin).toBe(provider.issuer);
    // The email typed at the dashboard reached the provider as the login hint.
    expect(await page.locator('input[name="login"]').inputValue()).toBe("grace@acme.test");
    await page.locator('input[name="password"]').fill("any password");
    await page.locator('button[type="submit"]').click();
    await page.waitForURL(`${stack.dashboardUrl}/`);
    await page.getByTestId("signed-in-user").waitFor();
    expect(await page.getByTestId("signed-in-user").textContent()).toContain("Administrator");
    expect(outside.every((host) => host.endsWith("googleapis.com"))).toBe(true);
  });
});
