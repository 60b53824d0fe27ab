import type { RecordedSpendBudget } from "@gateway/db";
import { describe, expect, it } from "vitest";
import { batchRecordedSpend } from "./batch-recorded-spend.js";

const month = { key: "2026-11", startsAt: Date.UTC(2026, 10, 1), endsAt: Date.UTC(2026, 11, 1) };
const budget = (id: string, organizationId = "org_a") => ({ id, organizationId, scope: "project" as const, scopeId: `proj_${id}` });

/** A sum that records each query and answers 100 per budget-id digit. */
function recordingSum() {
  const queries: { organizationId: string; budgets: readonly RecordedSpendBudget[] }[] = [];
  const sum = async (organizationId: string, budgets: readonly RecordedSpendBudget[]) => {
    queries.push({ organizationId, budgets });
    return new Map(budgets.map((entry) => [entry.id, Number(entry.id.replace(/\D/g, "")) * 100]));
  };
  return { queries, sum };
}

describe("batchRecordedSpend", () => {
  it("answers the budgets asked together with one query per organization, each with its own figure", async () => {
    const { queries, sum } = recordingSum();
    const load = batchRecordedSpend(sum);
    const figures = await Promise.all([load(budget("b1"), month), load(budget("b2"), month), load(budget("b3", "org_b"), month), load(budget("b4"), month)]);
    expect(figures).toEqual([100, 200, 300, 400]);
    expect(queries.map((query) => [query.organizationId, query.budgets.map((entry) => entry.id)])).toEqual([
      ["org_a", ["b1", "b2", "b4"]],
      ["org_b", ["b3"]],
    ]);
    expect(queries[0]!.budgets[0]).toEqual({ id: "b1", scope: "project", scopeId: "proj_b1", fromDay: "2026-11-01", baselineMicros: 0 });
  });

  it("asks a budget asked twice in separate queries, and later calls in a new batch", async () => {
    const { queries, sum } = recordingSum();
    const load = batchRecordedSpend(sum);
    await Promise.all([load(budget("b1"), month), load(budget("b1"), { key: "total", startsAt: 0, endsAt: null })]);
    expect(queries.map((query) => query.budgets.map((entry) => entry.fromDay))).toEqual([["2026-11-01"], [null]]);
    await load(budget("b2"), month);
    expect(queries).toHaveLength(3);
  });

  it("rejects every question of a failed query, and a budget without an organization", async () => {
    const load = batchRecordedSpend(async () => {
      throw new Error("database down");
    });
    await expect(Promise.all([load(budget("b1"), month), load(budget("b2"), month)])).rejects.toThrow("database down");
    await expect(batchRecordedSpend(recordingSum().sum)({ id: "b9", scope: "organization", scopeId: "org_a" }, month)).rejects.toThrow("has no organization");
  });
});
