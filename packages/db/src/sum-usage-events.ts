import type { SqlClient } from "./sql-client.js";
import { sqlNumber, sqlPlaceholder, sqlTimestamp } from "./sql-client.js";

/** Options of {@link sumUsageEvents}. */
export interface SumUsageEventsOptions {
  organizationId: string;
  /** Inclusive lower bound of `occurredAt`. */
  from: Date;
  /** Exclusive upper bound of `occurredAt`; default: no bound. */
  to?: Date;
  projectId?: string;
  apiKeyId?: string;
}

/** Totals of the usage events that match. */
export interface UsageEventTotals {
  requestCount: number;
  errorCount: number;
  /** Input + output + cache read + cache write tokens (what token rate limits count). */
  tokens: number;
  costMicros: number;
}

/** Sums the usage events of a scope in a time range (one SQL aggregate; e.g. a rate limit's current window). */
export async function sumUsageEvents(db: SqlClient, options: SumUsageEventsOptions): Promise<UsageEventTotals> {
  const args: unknown[] = [options.organizationId, sqlTimestamp(db.provider, options.from)];
  const conditions = [`organization_id = ${sqlPlaceholder(db.provider, 1)}`, `occurred_at >= ${sqlPlaceholder(db.provider, 2)}`];
  const add = (column: string, value: unknown) => {
    args.push(value);
    conditions.push(`${column} = ${sqlPlaceholder(db.provider, args.length)}`);
  };
  if (options.to !== undefined) {
    args.push(sqlTimestamp(db.provider, options.to));
    conditions.push(`occurred_at < ${sqlPlaceholder(db.provider, args.length)}`);
  }
  if (options.projectId !== undefined) add("project_id", options.projectId);
  if (options.apiKeyId !== undefined) add("api_key_id", options.apiKeyId);
  const [row] = await db.queryStatement({
    sql: `SELECT COUNT(*) AS request_count, SUM(CASE WHEN status >= 400 THEN 1 ELSE 0 END) AS error_count,
      SUM(input_tokens + output_tokens + cache_read_tokens + cache_write_tokens) AS tokens, SUM(cost_micros) AS cost_micros
      FROM usage_events WHERE ${conditions.join(" AND ")}`,
    args,
  });
  return {
    requestCount: sqlNumber(row?.request_count ?? 0),
    errorCount: sqlNumber(row?.error_count ?? 0),
    tokens: sqlNumber(row?.tokens ?? 0),
    costMicros: sqlNumber(row?.cost_micros ?? 0),
  };
}
