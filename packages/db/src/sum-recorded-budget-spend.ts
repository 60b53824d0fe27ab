import type { SqlClient } from "./sql-client.js";
import { sqlNumber, sqlPlaceholder } from "./sql-client.js";

/** One budget of {@link sumRecordedBudgetSpend}. */
export interface RecordedSpendBudget {
  id: string;
  scope: "organization" | "project" | "key" | "team";
  scopeId: string;
  /** First UTC day (`YYYY-MM-DD`) of the current period; null for `total` (every day). */
  fromDay: string | null;
  /** Recorded spend that no longer counts (a reset in this period); 0 when none. */
  baselineMicros: number;
}

/** Options of {@link sumRecordedBudgetSpend}. */
export interface SumRecordedBudgetSpendOptions {
  organizationId: string;
  budgets: readonly RecordedSpendBudget[];
}

/**
 * The recorded spend of budgets in their current periods, from the daily usage rollups: the
 * cost of the period's days in the budget's scope (team budgets: the keys of the team), minus
 * the reset baseline, never below 0. One query for all budgets (plus one for team membership),
 * then one pass over the rows: the dashboard's budget statuses and the gateway's counter seeds
 * (`loadRecordedSpend`) both use it, so they agree. Raw SQL: the gateway process has no Prisma.
 */
export async function sumRecordedBudgetSpend(db: SqlClient, options: SumRecordedBudgetSpendOptions): Promise<Map<string, number>> {
  const result = new Map<string, number>();
  if (options.budgets.length === 0) return result;
  const args: unknown[] = [options.organizationId];
  const conditions = [`organization_id = ${sqlPlaceholder(db.provider, 1)}`];
  let earliest: string | null = "9999-12-31";
  for (const budget of options.budgets) {
    if (budget.fromDay === null) earliest = null;
    else if (earliest !== null && budget.fromDay < earliest) earliest = budget.fromDay;
  }
  if (earliest !== null) {
    args.push(earliest);
    conditions.push(`day >= ${sqlPlaceholder(db.provider, args.length)}`);
  }
  // One budget (a gateway seeding a counter): only its scope's rows.
  const only = options.budgets.length === 1 ? options.budgets[0]! : null;
  if (only !== null && only.scope !== "organization") {
    args.push(only.scopeId);
    const placeholder = sqlPlaceholder(db.provider, args.length);
    if (only.scope === "project") conditions.push(`project_id = ${placeholder}`);
    else if (only.scope === "key") conditions.push(`api_key_id = ${placeholder}`);
    else conditions.push(`api_key_id IN (SELECT id FROM api_keys WHERE team_id = ${placeholder})`);
  }
  const needsTeams = options.budgets.some((budget) => budget.scope === "team");
  const [rows, teamRows] = await Promise.all([
    db.queryStatement({
      sql: `SELECT day, project_id, api_key_id, SUM(cost_micros) AS cost_micros FROM usage_daily_rollups
        WHERE ${conditions.join(" AND ")} GROUP BY day, project_id, api_key_id`,
      args,
    }),
    needsTeams
      ? db.queryStatement({
          sql: `SELECT id, team_id FROM api_keys WHERE organization_id = ${sqlPlaceholder(db.provider, 1)} AND team_id IS NOT NULL`,
          args: [options.organizationId],
        })
      : Promise.resolve([]),
  ]);
  const teamOfKey = new Map<string, string>();
  for (const row of teamRows) teamOfKey.set(String(row.id), String(row.team_id));

  // Totals per distinct period start (at most day, week, month and total), by scope: one pass
  // over the rows, then one lookup per budget.
  const starts = [...new Set(options.budgets.map((budget) => budget.fromDay ?? ""))];
  const totals = starts.map((start) => ({
    start,
    organization: 0,
    project: new Map<string, number>(),
    key: new Map<string, number>(),
    team: new Map<string, number>(),
  }));
  const add = (map: Map<string, number>, id: string, cost: number) => map.set(id, (map.get(id) ?? 0) + cost);
  for (const row of rows) {
    const day = String(row.day);
    const cost = sqlNumber(row.cost_micros ?? 0);
    const projectId = String(row.project_id ?? "");
    const apiKeyId = String(row.api_key_id ?? "");
    const teamId = apiKeyId === "" ? undefined : teamOfKey.get(apiKeyId);
    for (const total of totals) {
      if (day < total.start) continue;
      total.organization += cost;
      if (projectId !== "") add(total.project, projectId, cost);
      if (apiKeyId !== "") add(total.key, apiKeyId, cost);
      if (teamId !== undefined) add(total.team, teamId, cost);
    }
  }
  const byStart = new Map(totals.map((total) => [total.start, total]));
  for (const budget of options.budgets) {
    const total = byStart.get(budget.fromDay ?? "")!;
    const recorded = budget.scope === "organization" ? total.organization : (total[budget.scope].get(budget.scopeId) ?? 0);
    result.set(budget.id, Math.max(0, recorded - Math.max(0, budget.baselineMicros)));
  }
  return result;
}
