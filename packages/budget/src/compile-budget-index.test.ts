import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { budgetAppliesTo, rateLimitAppliesTo, type BudgetRule, type CallerScope, type RateLimitRule } from "./budget-rule.js";
import { compileBudgetIndex } from "./compile-budget-index.js";

const caller: CallerScope = { organizationId: "org_1", projectId: "project_1", apiKeyId: "key_1", teamId: "team_1" };

function budget(id: string, overrides: Partial<BudgetRule>): BudgetRule {
  return { id, organizationId: "org_1", scope: "project", scopeId: "project_1", amountMicros: 1_000, period: "day", mode: "hard", thresholds: [], ...overrides };
}

function rateLimit(id: string, overrides: Partial<RateLimitRule>): RateLimitRule {
  return { id, organizationId: "org_1", scope: "key", scopeId: "key_1", windowSeconds: 60, requestsPerWindow: 10, tokensPerWindow: null, concurrency: null, ...overrides };
}

function withoutMissingOrganization<T extends { organizationId?: string }>(rule: T): T {
  if (rule.organizationId === undefined) delete rule.organizationId;
  return rule;
}

const ids = (rules: readonly { id: string }[]) => rules.map((rule) => rule.id);

describe("compileBudgetIndex", () => {
  const budgets = [
    budget("key", { scope: "key", scopeId: "key_1", mode: "soft" }),
    budget("other-project", { scope: "project", scopeId: "project_2" }),
    budget("organization", { scope: "organization", scopeId: "org_1", mode: "soft" }),
    budget("team", { scope: "team", scopeId: "team_1", mode: "soft" }),
    budget("project", { scope: "project", scopeId: "project_1", mode: "hard" }),
    budget("other-team", { scope: "team", scopeId: "team_2" }),
    budget("other-organization", { organizationId: "org_2", scope: "organization", scopeId: "org_2" }),
  ];
  const limits = [
    rateLimit("project", { scope: "project", scopeId: "project_1" }),
    rateLimit("other-key", { scope: "key", scopeId: "key_2", tokensPerWindow: 1_000 }),
    rateLimit("key", { scope: "key", scopeId: "key_1" }),
  ];
  const index = compileBudgetIndex(budgets, limits);

  it("finds the budgets of the caller's organization, project, team and key, in list order", () => {
    expect(ids(index.budgetsFor(caller))).toEqual(["key", "organization", "team", "project"]);
    expect(ids(index.budgetsFor({ ...caller, apiKeyId: "key_2", teamId: null }))).toEqual(["organization", "project"]);
    expect(ids(index.budgetsFor({ ...caller, projectId: "project_2", teamId: "team_2" }))).toEqual(["key", "other-project", "organization", "other-team"]);
    expect(ids(index.budgetsFor({ organizationId: "org_2", projectId: "project_9", apiKeyId: "key_9" }))).toEqual(["other-organization"]);
    expect(index.budgetsFor({ organizationId: "org_3", projectId: "project_3", apiKeyId: "key_3", teamId: "team_3" })).toEqual([]);
  });

  it("finds the caller's project and key rate limits, in list order", () => {
    expect(ids(index.rateLimitsFor(caller))).toEqual(["project", "key"]);
    expect(ids(index.rateLimitsFor({ ...caller, apiKeyId: "key_2" }))).toEqual(["project", "other-key"]);
    expect(index.rateLimitsFor({ ...caller, projectId: "project_2", apiKeyId: "key_3" })).toEqual([]);
  });

  it("does not apply a rule of another organization that names the caller's scope id", () => {
    const foreign = compileBudgetIndex(
      [budget("foreign", { organizationId: "org_2", scope: "project", scopeId: "project_1" }), budget("own", {})],
      [rateLimit("foreign", { organizationId: "org_2" })],
    );
    expect(ids(foreign.budgetsFor(caller))).toEqual(["own"]);
    expect(foreign.rateLimitsFor(caller)).toEqual([]);
  });

  it("answers whether a hard budget or a token limit applies to the caller", () => {
    expect(index.hasHardBudget(caller)).toBe(true);
    expect(index.hasHardBudget({ ...caller, projectId: "project_3" })).toBe(false);
    expect(index.hasTokenLimit(caller)).toBe(false);
    expect(index.hasTokenLimit({ ...caller, apiKeyId: "key_2" })).toBe(true);
  });

  it("forgets a removed budget or limit once compiled again from the new lists", () => {
    const without = compileBudgetIndex(
      budgets.filter((rule) => rule.id !== "team"),
      limits.filter((rule) => rule.id !== "key"),
    );
    expect(ids(without.budgetsFor(caller))).toEqual(["key", "organization", "project"]);
    expect(ids(without.rateLimitsFor(caller))).toEqual(["project"]);
    expect(ids(index.budgetsFor(caller))).toEqual(["key", "organization", "team", "project"]);
  });

  it("selects exactly what a walk with budgetAppliesTo / rateLimitAppliesTo selects (property)", () => {
    const organizations = ["org_1", "org_2"];
    const projects = ["project_1", "project_2", "org_1"];
    const keys = ["key_1", "key_2", "project_1"];
    const teams = ["team_1", "team_2", "key_1"];
    const scopeIds = [...new Set([...organizations, ...projects, ...keys, ...teams])];
    const budgetArbitrary = fc.record({
      organizationId: fc.option(fc.constantFrom(...organizations), { nil: undefined }),
      scope: fc.constantFrom("organization", "project", "team", "key") as fc.Arbitrary<BudgetRule["scope"]>,
      scopeId: fc.constantFrom(...scopeIds),
      mode: fc.constantFrom("hard", "soft") as fc.Arbitrary<BudgetRule["mode"]>,
    });
    const limitArbitrary = fc.record({
      organizationId: fc.option(fc.constantFrom(...organizations), { nil: undefined }),
      scope: fc.constantFrom("project", "key") as fc.Arbitrary<RateLimitRule["scope"]>,
      scopeId: fc.constantFrom(...scopeIds),
      tokensPerWindow: fc.option(fc.constant(100), { nil: null }),
    });
    const callerArbitrary = fc.record({
      organizationId: fc.constantFrom(...organizations),
      projectId: fc.constantFrom(...projects),
      apiKeyId: fc.constantFrom(...keys),
      teamId: fc.option(fc.constantFrom(...teams), { nil: null }),
    });
    fc.assert(
      fc.property(fc.array(budgetArbitrary, { maxLength: 12 }), fc.array(limitArbitrary, { maxLength: 8 }), callerArbitrary, (budgetParts, limitParts, who) => {
        // A rule without `organizationId` is matched on its scope id alone.
        const budgetList = budgetParts.map((part, position) => withoutMissingOrganization(budget(`b${position}`, part as Partial<BudgetRule>)));
        const limitList = limitParts.map((part, position) => withoutMissingOrganization(rateLimit(`l${position}`, part as Partial<RateLimitRule>)));
        const compiled = compileBudgetIndex(budgetList, limitList);
        const walkedBudgets = budgetList.filter((rule) => budgetAppliesTo(rule, who));
        const walkedLimits = limitList.filter((rule) => rateLimitAppliesTo(rule, who));
        expect(compiled.budgetsFor(who)).toEqual(walkedBudgets);
        expect(compiled.rateLimitsFor(who)).toEqual(walkedLimits);
        expect(compiled.hasHardBudget(who)).toBe(walkedBudgets.some((rule) => rule.mode === "hard"));
        expect(compiled.hasTokenLimit(who)).toBe(walkedLimits.some((rule) => rule.tokensPerWindow !== null));
      }),
      { numRuns: 500 },
    );
  });
});
