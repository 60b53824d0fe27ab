import type { z } from "zod";

/** Whether an issue says a value is not the one constant its option requires (`type` is not "regex"). */
function isConstantMismatch(issue: z.core.$ZodIssue): boolean {
  return issue.code === "invalid_value" && issue.values.length === 1;
}

/**
 * Replaces each "matches no option of a union" issue by the issues of the option the value meant,
 * so that errors land on their field: a guardrail rule `{type: "regex"}` without a name reports
 * `rules[0].name`, not "not a valid choice" on the whole rule. The option meant is the only one
 * whose constants (a `type` discriminator) the value has right; when no single option is, the
 * union's issue stays as it is. Paths of the option's issues are made absolute.
 */
export function narrowUnionIssues(issues: readonly z.core.$ZodIssue[]): z.core.$ZodIssue[] {
  return issues.flatMap((issue) => {
    if (issue.code !== "invalid_union" || !Array.isArray(issue.errors) || issue.errors.length === 0) return [issue];
    const meant = issue.errors.filter((optionIssues) => !optionIssues.some(isConstantMismatch));
    if (meant.length !== 1 || meant[0]!.length === 0) return [issue];
    return narrowUnionIssues(meant[0]!.map((inner) => ({ ...inner, path: [...issue.path, ...inner.path] }) as z.core.$ZodIssue));
  });
}
