import type { SqlClient } from "./sql-client.js";
import { sqlNumber, sqlPlaceholder, sqlTimestamp } from "./sql-client.js";

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

/** The earliest `fromDay` of some budgets; null when one of them counts every day. */
function earliestDay(budgets: readonly RecordedSpendBudget[]): string | null {
  let earliest = "9999-12-31";
  for (const budget of budgets) {
    if (budget.fromDay === null) return null;
    if (budget.fromDay < earliest) earliest = budget.fromDay;
  }
  return earliest;
}

/** At most this many scope ids narrow the daily rollups read (`IN` lists); more read the organization's rows. */
const maximumNarrowingIds = 500;

/**
 * The recorded spend of budgets in their current periods, from the coarsest rollup that answers:
 * organization budgets from the organization rollups (`usage_organization_hourly_rollups`, one row
 * per hour and model), project, key and team budgets from the daily rollups of their scopes (team
 * budgets: the keys of the team); minus the reset baseline, never below 0. At most one query per
 * rollup (plus one for team membership), then one pass over the rows: the dashboard's budget
 * statuses and the gateway's counter seeds (`loadRecordedSpend`) both use it, so they agree. Raw
 * SQL: the gateway process has no Prisma.
 */
export async function sumRecordedBudgetSpend(db: SqlClient, options: SumRecordedBudgetSpendOptions): Promise<Map<string, number>> {
  const result = new Map<string, number>();
  if (options.budgets.length === 0) return result;
  const organizationBudgets = options.budgets.filter((budget) => budget.scope === "organization");
  const scopedBudgets = options.budgets.filter((budget) => budget.scope !== "organization");
  const needsTeams = scopedBudgets.some((budget) => budget.scope === "team");
  const [organizationRows, scopedRows, teamRows] = await Promise.all([
    organizationBudgets.length > 0 ? readOrganizationDailySpend(db, options.organizationId, earliestDay(organizationBudgets)) : Promise.resolve([]),
    scopedBudgets.length > 0 ? readScopedDailySpend(db, options.organizationId, scopedBudgets) : Promise.resolve([]),
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
  for (const row of organizationRows) {
    const day = String(row.day);
    const cost = sqlNumber(row.cost_micros ?? 0);
    for (const total of totals) if (day >= total.start) total.organization += cost;
  }
  for (const row of scopedRows) {
    const day = String(row.day);
    const cost = sqlNumber(row.cost_micros ?? 0);
    const projectId = String(row.project_id ?? "");
    const apiKeyId = String(row.api_key_id ?? "");
    const teamId = apiKeyId === "" ? undefined : teamOfKey.get(apiKeyId);
    for (const total of totals) {
      if (day < total.start) continue;
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

/** An organization's cost per UTC day (`day`, `cost_micros`) from its organization rollups, from a day on (null: every day). */
function readOrganizationDailySpend(db: SqlClient, organizationId: string, fromDay: string | null) {
  const args: unknown[] = [organizationId];
  let since = "";
  if (fromDay !== null) {
    args.push(sqlTimestamp(db.provider, new Date(`${fromDay}T00:00:00.000Z`)));
    since = ` AND hour >= ${sqlPlaceholder(db.provider, 2)}`;
  }
  // SQLite keeps ISO-8601 text, PostgreSQL a UTC timestamp(3).
  const day = db.provider === "sqlite" ? "substr(hour, 1, 10)" : `to_char(hour, 'YYYY-MM-DD')`;
  return db.queryStatement({
    sql: `SELECT ${day} AS day, SUM(cost_micros) AS cost_micros FROM usage_organization_hourly_rollups
      WHERE organization_id = ${sqlPlaceholder(db.provider, 1)}${since} GROUP BY 1`,
    args,
  });
}

/** Cost per (day, project, key) from the daily rollups, narrowed to the budgets' period and (up to {@link maximumNarrowingIds}) scopes. */
function readScopedDailySpend(db: SqlClient, organizationId: string, budgets: readonly RecordedSpendBudget[]) {
  const args: unknown[] = [organizationId];
  const parameter = (value: unknown) => {
    args.push(value);
    return sqlPlaceholder(db.provider, args.length);
  };
  const conditions = [`organization_id = ${sqlPlaceholder(db.provider, 1)}`];
  const earliest = earliestDay(budgets);
  if (earliest !== null) conditions.push(`day >= ${parameter(earliest)}`);
  const idsOf = (scope: RecordedSpendBudget["scope"]) => [...new Set(budgets.filter((budget) => budget.scope === scope).map((budget) => budget.scopeId))];
  const projects = idsOf("project");
  const keys = idsOf("key");
  const teams = idsOf("team");
  if (projects.length + keys.length + teams.length <= maximumNarrowingIds) {
    const list = (ids: string[]) => ids.map((id) => parameter(id)).join(", ");
    const scopes: string[] = [];
    if (projects.length > 0) scopes.push(`project_id IN (${list(projects)})`);
    if (keys.length > 0) scopes.push(`api_key_id IN (${list(keys)})`);
    if (teams.length > 0) scopes.push(`api_key_id IN (SELECT id FROM api_keys WHERE team_id IN (${list(teams)}))`);
    conditions.push(`(${scopes.join(" OR ")})`);
  }
  return db.queryStatement({
    sql: `SELECT day, project_id, api_key_id, SUM(cost_micros) AS cost_micros FROM usage_daily_rollups
      WHERE ${conditions.join(" AND ")} GROUP BY day, project_id, api_key_id`,
    args,
  });
}
