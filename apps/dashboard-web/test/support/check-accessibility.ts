import { createRequire } from "node:module";
import { readFileSync } from "node:fs";
import type { Page } from "playwright-core";

const axeSource = readFileSync(createRequire(import.meta.url).resolve("axe-core/axe.min.js"), "utf8");

/** One axe rule a page breaks, with the elements that break it. */
export interface AccessibilityViolation {
  id: string;
  impact: string | null;
  help: string;
  targets: string[];
}

/**
 * Runs axe-core (WCAG 2.0/2.1 A and AA rules) on the page as it is now and answers the
 * violations of `serious` or `critical` impact. axe is injected as a script: the web app's
 * content-security policy applies to the page's own scripts, not to Playwright's evaluation.
 */
export async function seriousAccessibilityViolations(page: Page): Promise<AccessibilityViolation[]> {
  await page.evaluate(axeSource);
  const violations = await page.evaluate(async () => {
    type Rule = { id: string; impact: string | null; help: string; nodes: { target: unknown[] }[] };
    const axe = (globalThis as unknown as { axe: { run(context: unknown, options: unknown): Promise<{ violations: Rule[]; passes: Rule[] }> } }).axe;
    const result = await axe.run(document, { runOnly: { type: "tag", values: ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"] }, resultTypes: ["violations"] });
    // Not vacuous: the rules ran on the page's content.
    if (result.passes.length === 0) throw new Error("axe checked no rule on this page");
    return result.violations.map((violation) => ({ id: violation.id, impact: violation.impact, help: violation.help, targets: violation.nodes.map((node) => node.target.join(" ")) }));
  });
  return violations.filter((violation) => violation.impact === "serious" || violation.impact === "critical");
}
