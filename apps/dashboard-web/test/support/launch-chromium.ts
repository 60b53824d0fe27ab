import { existsSync } from "node:fs";
import { type Browser, chromium } from "playwright-core";

/** Debian's Chromium (`apt-get install -y chromium`); never a downloaded browser. */
export const chromiumPath = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";

/** Whether the browser suites can run. In CI a missing browser is a failure, not a skip. */
export const chromiumAvailable = existsSync(chromiumPath);
if (!chromiumAvailable) {
  if (process.env.CI) throw new Error(`${chromiumPath} is missing: CI installs Debian's chromium (.ci/run); the browser suites cannot be skipped there.`);
  console.warn(`\n⚠ ${chromiumPath} is missing: the dashboard's browser suites are SKIPPED (apt-get install -y chromium to run them).\n`);
}

/** Launches headless Chromium with a fresh profile (Playwright gives every launch its own temporary user data directory). */
export function launchChromium(): Promise<Browser> {
  return chromium.launch({
    executablePath: chromiumPath,
    headless: true,
    args: ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking", "--disable-component-update", "--disable-sync"],
  });
}
