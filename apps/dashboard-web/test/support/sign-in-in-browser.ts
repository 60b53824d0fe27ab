import type { Page } from "playwright-core";
import type { GatewayStack } from "./start-gateway-stack.js";

/** What went wrong in a page while a suite drove it: answers 403 and script errors (resources that failed to load aside). */
export interface PageTrouble {
  forbidden: string[];
  consoleErrors: string[];
}

/** Starts recording a page's 403 answers and script errors, for a suite to assert there were none. */
export function watchPage(page: Page): PageTrouble {
  const trouble: PageTrouble = { forbidden: [], consoleErrors: [] };
  page.on("response", (response) => {
    if (response.status() === 403) trouble.forbidden.push(`${response.request().method()} ${response.url()}`);
  });
  page.on("console", (message) => {
    if (message.type() === "error" && !message.text().startsWith("Failed to load resource")) trouble.consoleErrors.push(message.text());
  });
  page.on("pageerror", (error) => trouble.consoleErrors.push(String(error)));
  return trouble;
}

/** Signs in through the sign-in screen (the stack's first owner unless told otherwise) and waits for the signed-in layout. */
export async function signInInBrowser(page: Page, stack: GatewayStack, account: { email: string; password: string } = { email: stack.adminEmail, password: stack.adminPassword }): Promise<void> {
  await page.goto(`${stack.dashboardUrl}/login`);
  await page.getByLabel("Email").fill(account.email);
  await page.getByLabel("Password").fill(account.password);
  await page.getByRole("button", { name: "Sign in" }).click();
  await page.getByTestId("signed-in-user").waitFor();
}
