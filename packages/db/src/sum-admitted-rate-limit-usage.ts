import type { SqlClient } from "./sql-client.js";
import { sqlNumber, sqlPlaceholder, sqlTimestamp } from "./sql-client.js";

/** One rate limit of {@link sumAdmittedRateLimitUsage}. */
export interface AdmittedUsageLimit {
  id: string;
  scope: "project" | "key";
  scopeId: string;
  /** Inclusive lower bound of `occurred_at`: max(window start, the limit's creation). */
  from: Date;
}

/** Recorded calls and tokens of one rate limit. */
export interface AdmittedUsageTotals {
  requests: number;
  /** Input + output + cache read + cache write tokens. */
  tokens: number;
}

const chunkSize = 400;

/**
 * The recorded usage of calls that passed admission (answered, or failed after reaching a
 * provider: `status < 400 OR provider IS NOT NULL`; refusals by a rate limit, a budget,
 * authentication or validation are not counted), per rate limit since its own `from`: one
 * query per 400 limits (a VALUES list joined to the events), not one per limit. The dashboard's
 * figure when it cannot read the limiter's counters (in-memory counters of another process).
 */
export async function sumAdmittedRateLimitUsage(
  db: SqlClient,
  options: { organizationId: string; limits: readonly AdmittedUsageLimit[] },
): Promise<Map<string, AdmittedUsageTotals>> {
  const result = new Map<string, AdmittedUsageTotals>();
  for (let first = 0; first < options.limits.length; first += chunkSize) {
    const chunk = options.limits.slice(first, first + chunkSize);
    // Arguments in the order of their placeholders (SQLite's `?` are positional).
    const args: unknown[] = [];
    const timestampType = db.provider === "postgresql" ? "::timestamp(3)" : "";
    const textType = db.provider === "postgresql" ? "::text" : "";
    const values = chunk.map((limit) => {
      args.push(limit.id, limit.scope === "project" ? limit.scopeId : null, limit.scope === "key" ? limit.scopeId : null, sqlTimestamp(db.provider, limit.from));
      const at = args.length;
      return `(${sqlPlaceholder(db.provider, at - 3)}${textType}, ${sqlPlaceholder(db.provider, at - 2)}${textType}, ${sqlPlaceholder(db.provider, at - 1)}${textType}, ${sqlPlaceholder(db.provider, at)}${timestampType})`;
    });
    args.push(options.organizationId);
    const organizationPlaceholder = sqlPlaceholder(db.provider, args.length);
    const rows = await db.queryStatement({
      sql: `WITH limits (limit_id, project_id, api_key_id, since) AS (VALUES ${values.join(", ")})
        SELECT limits.limit_id AS limit_id, COUNT(events.id) AS requests,
          SUM(events.input_tokens + events.output_tokens + events.cache_read_tokens + events.cache_write_tokens) AS tokens
        FROM limits JOIN usage_events events
          ON events.organization_id = ${organizationPlaceholder} AND events.occurred_at >= limits.since
          AND ((limits.project_id IS NOT NULL AND events.project_id = limits.project_id)
            OR (limits.api_key_id IS NOT NULL AND events.api_key_id = limits.api_key_id))
          AND (events.status < 400 OR events.provider IS NOT NULL)
        GROUP BY limits.limit_id`,
      args,
    });
    for (const row of rows) result.set(String(row.limit_id), { requests: sqlNumber(row.requests ?? 0), tokens: sqlNumber(row.tokens ?? 0) });
  }
  for (const limit of options.limits) if (!result.has(limit.id)) result.set(limit.id, { requests: 0, tokens: 0 });
  return result;
}
