import type { SqlClient } from "./sql-client.js";
import { sqlNumber, sqlPlaceholder, sqlTimestamp } from "./sql-client.js";

/** Options of {@link listAdmittedTokenBuckets}. */
export interface ListAdmittedTokenBucketsOptions {
  organizationId: string;
  scope: "project" | "key";
  scopeId: string;
  /** Inclusive lower bound of `occurred_at`. */
  from: Date;
}

/**
 * The tokens (input + output + cache) of the calls that passed admission (`status < 400 OR
 * provider IS NOT NULL`, as `sumAdmittedRateLimitUsage` counts them) in a rate limit's scope
 * since `from`, per UTC minute, oldest first: what rebuilds a gateway's token window of an hour or
 * more when its counter is missing. Raw SQL (the gateway process has no Prisma); one query.
 */
export async function listAdmittedTokenBuckets(db: SqlClient, options: ListAdmittedTokenBucketsOptions): Promise<{ time: number; tokens: number }[]> {
  // `YYYY-MM-DDTHH:MM` (SQLite keeps ISO text; PostgreSQL formats its timestamp).
  const minute = db.provider === "postgresql" ? `to_char(occurred_at, 'YYYY-MM-DD"T"HH24:MI')` : "substr(occurred_at, 1, 16)";
  const rows = await db.queryStatement({
    sql: `SELECT ${minute} AS minute, SUM(input_tokens + output_tokens + cache_read_tokens + cache_write_tokens) AS tokens
      FROM usage_events
      WHERE organization_id = ${sqlPlaceholder(db.provider, 1)} AND occurred_at >= ${sqlPlaceholder(db.provider, 2)}
        AND ${options.scope === "project" ? "project_id" : "api_key_id"} = ${sqlPlaceholder(db.provider, 3)}
        AND (status < 400 OR provider IS NOT NULL)
      GROUP BY ${minute} ORDER BY ${minute}`,
    args: [options.organizationId, sqlTimestamp(db.provider, options.from), options.scopeId],
  });
  const buckets: { time: number; tokens: number }[] = [];
  for (const row of rows) {
    const tokens = sqlNumber(row.tokens ?? 0);
    if (tokens > 0) buckets.push({ time: Date.parse(`${String(row.minute)}:00Z`), tokens });
  }
  return buckets;
}
