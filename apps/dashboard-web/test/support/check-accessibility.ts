import { createRequire } from "node:module";
import { readFileSync } from "node:fs";
import type { Page } from "playwright-core";

/** axe-core's browser bundle, evaluated in the page (DevTools evaluation is not subject to the page's CSP). */
const axeSource = readFileSync(createRequire(import.meta.url).resolve("axe-core/axe.min.js"), "utf8");

/** One axe rule a page breaks, with the elements that break it. */
export interface AccessibilityViolation {
  id: string;
  impact: string | null;
  help: string;
  targets: string[];
}

/** Rules reported whatever their impact: the walk through the dashboard found these (moderate in axe). */
const alwaysReported = new Set(["heading-order", "scrollable-region-focusable"]);

/**
 * Runs axe-core on the page as it is now and answers the violations that must not be there:
 * `serious` or `critical` ones, plus heading levels that skip and scrolling boxes the keyboard
 * cannot reach. Throws when axe checked (almost) nothing, so an empty or broken page cannot pass.
 */
export async function seriousAccessibilityViolations(page: Page): Promise<AccessibilityViolation[]> {
  if (!(await page.evaluate(() => "axe" in window))) await page.evaluate(axeSource);
  const { violations, rulesPassed } = await page.evaluate(async () => {
    type Rule = { id: string; impact: string | null; help: string; nodes: { target: unknown[] }[] };
    const axe = (globalThis as unknown as { axe: { run(context: unknown, options: unknown): Promise<{ violations: Rule[]; passes: Rule[] }> } }).axe;
    const result = await axe.run(document, { resultTypes: ["violations"] });
    return {
      violations: result.violations.map((violation) => ({ id: violation.id, impact: violation.impact, help: violation.help, targets: violation.nodes.map((node) => node.target.join(" ")) })),
      rulesPassed: result.passes.length,
    };
  });
  if (rulesPassed <= 10) throw new Error(`axe checked only ${rulesPassed} rules on this page`);
  return violations.filter((violation) => violation.impact === "serious" || violation.impact === "critical" || alwaysReported.has(violation.id));
}

/** {@link seriousAccessibilityViolations} as one line each, for readable failure messages. */
export async function describeAccessibilityViolations(page: Page): Promise<string[]> {
  return (await seriousAccessibilityViolations(page)).map((violation) => `${violation.id} (${violation.impact}): ${violation.help} at ${violation.targets.join(", ")}`);
}
