import type { UsageEventRecord } from "@gateway/contracts";
import type { DatabaseProvider } from "./database-url.js";
import { multiRowUpserts } from "./multi-row-upserts.js";
import { sqlTimestamp } from "./sql-client.js";
import type { SqlStatement } from "./statement-runner.js";
import { timeOrderedId } from "./time-ordered-id.js";

/** Upper bounds (inclusive, ms) of the latency histogram buckets of the hourly rollups and the usage series; a last bucket holds everything slower. */
export const usageLatencyBucketBoundsMs: readonly number[] = [50, 100, 200, 300, 500, 750, 1000, 1500, 2000, 3000, 5000, 7500, 10_000, 20_000, 30_000, 60_000];

/** The histogram bucket of a latency (see {@link usageLatencyBucketBoundsMs}). */
export function latencyBucketIndex(latencyMs: number): number {
  for (let index = 0; index < usageLatencyBucketBoundsMs.length; index += 1) if (latencyMs <= usageLatencyBucketBoundsMs[index]!) return index;
  return usageLatencyBucketBoundsMs.length;
}

const HISTOGRAM_COLUMNS = Array.from({ length: usageLatencyBucketBoundsMs.length + 1 }, (_, index) => `latency_bucket_${index}`);

// Summed columns, in the order of a group's `sums`.
const SUMMED = [
  "request_count", "error_count", "input_tokens", "output_tokens", "cache_read_tokens", "cache_write_tokens", "cost_micros",
  "latency_ms_sum", "latency_count", "time_to_first_byte_ms_sum", "time_to_first_byte_count", ...HISTOGRAM_COLUMNS,
] as const;
const KEY_COLUMNS = ["hour", "organization_id", "project_id", "api_key_id", "model", "client_label"] as const;

/** A count or amount as a non-negative integer (a NaN or negative figure adds nothing). */
export const toInteger = (value: number) => (Number.isFinite(value) ? Math.max(0, Math.round(value)) : 0);

/** The model key of a rollup row (daily and hourly): `<provider>/<model>` when the provider is known, else the model, else the requested model. */
export function rollupModelKey(event: Pick<UsageEventRecord, "provider" | "model" | "requestedModel">): string {
  if (event.provider && event.model) return `${event.provider}/${event.model}`;
  return event.model ?? event.requestedModel ?? "";
}

interface HourlyGroup<Key extends readonly string[] = [string, string, string, string, string]> {
  hour: Date;
  key: Key;
  sums: number[];
  latencyMax: number;
}

/** Sums events per (UTC hour, the key `keyOf` gives), in the order of `SUMMED`. */
function aggregateHourly<Key extends readonly string[]>(events: readonly UsageEventRecord[], keyOf: (event: UsageEventRecord) => Key): HourlyGroup<Key>[] {
  const groups = new Map<string, HourlyGroup<Key>>();
  for (const event of events) {
    const hourMs = Math.floor(event.occurredAt.getTime() / 3_600_000) * 3_600_000;
    const key = keyOf(event);
    const mapKey = `${hourMs}\u0000${key.join("\u0000")}`;
    let group = groups.get(mapKey);
    if (group === undefined) {
      group = { hour: new Date(hourMs), key, sums: new Array<number>(SUMMED.length).fill(0), latencyMax: 0 };
      groups.set(mapKey, group);
    }
    const latency = toInteger(event.latencyMs);
    const sums = group.sums;
    addCallTotals(sums, event);
    sums[7]! += latency;
    sums[8]! += 1;
    if (event.timeToFirstByteMs !== null && event.timeToFirstByteMs !== undefined) {
      sums[9]! += toInteger(event.timeToFirstByteMs);
      sums[10]! += 1;
    }
    sums[11 + latencyBucketIndex(latency)]! += 1;
    if (latency > group.latencyMax) group.latencyMax = latency;
  }
  return [...groups.values()];
}

/**
 * Adds one call to the totals every usage rollup starts with, in this order: requests, errors,
 * input, output, cache read and cache write tokens, cost (the daily rollup's columns, and the
 * first seven of the hourly ones).
 */
export function addCallTotals(sums: number[], event: UsageEventRecord): void {
  sums[0]! += 1;
  if (event.status >= 400) sums[1]! += 1;
  sums[2]! += toInteger(event.inputTokens);
  sums[3]! += toInteger(event.outputTokens);
  sums[4]! += toInteger(event.cacheReadTokens);
  sums[5]! += toInteger(event.cacheWriteTokens);
  sums[6]! += toInteger(event.costMicros);
}

/** Sums events per (UTC hour, organization, project, key, model, client label); "" stands for none. */
export function aggregateHourlyUsageRollups(events: readonly UsageEventRecord[]): HourlyGroup[] {
  return aggregateHourly(events, (event): HourlyGroup["key"] => [event.organizationId ?? "", event.projectId ?? "", event.apiKeyId ?? "", rollupModelKey(event), event.clientLabel ?? ""]);
}

/**
 * Sums events per (UTC hour, organization, model): the rows of `usage_organization_hourly_rollups`,
 * ordered by hour and key so that concurrent writers take the (few, shared) row locks in one order.
 */
export function aggregateOrganizationHourlyUsageRollups(events: readonly UsageEventRecord[]): HourlyGroup<[string, string]>[] {
  const groups = aggregateHourly(events, (event): [string, string] => [event.organizationId ?? "", rollupModelKey(event)]);
  return groups.sort((a, b) => a.hour.getTime() - b.hour.getTime() || (a.key[0] < b.key[0] ? -1 : a.key[0] > b.key[0] ? 1 : a.key[1] < b.key[1] ? -1 : a.key[1] > b.key[1] ? 1 : 0));
}

/** `INSERT ... ON CONFLICT (natural key) DO UPDATE` adding groups to an hourly rollup table (atomic increments; same syntax on both dialects). */
function hourlyRollupUpserts<Key extends readonly string[]>(
  provider: DatabaseProvider,
  table: string,
  keyColumns: { [Index in keyof Key]: string },
  conflictColumns: readonly string[],
  groups: readonly HourlyGroup<Key>[],
  chunkSize: number,
): SqlStatement[] {
  const columns = ["id", "hour", ...keyColumns, ...SUMMED, "latency_ms_max", "updated_at"];
  const now = sqlTimestamp(provider, new Date());
  const updates = [
    ...SUMMED.map((column) => `"${column}" = "${table}"."${column}" + excluded."${column}"`),
    `"latency_ms_max" = CASE WHEN excluded."latency_ms_max" > "${table}"."latency_ms_max" THEN excluded."latency_ms_max" ELSE "${table}"."latency_ms_max" END`,
    `"updated_at" = excluded."updated_at"`,
  ];
  const asBigint = (value: number) => (provider === "postgresql" ? String(value) : value);
  const rows = groups.map((group) => [timeOrderedId(), sqlTimestamp(provider, group.hour), ...group.key, ...group.sums.map(asBigint), asBigint(group.latencyMax), now]);
  return multiRowUpserts(provider, table, columns, conflictColumns, updates, rows, chunkSize);
}

/**
 * `INSERT ... ON CONFLICT (natural key) DO UPDATE` statements adding the events to the hourly
 * rollups (atomic increments, safe with concurrent writers; same syntax on both dialects), up to
 * `chunkSize` groups per statement (default 20 on SQLite, as the events; at most 200).
 */
export function hourlyUsageRollupStatements(provider: DatabaseProvider, events: readonly UsageEventRecord[], chunkSize = provider === "sqlite" ? 20 : 500): SqlStatement[] {
  if (events.length === 0) return [];
  return hourlyRollupUpserts(provider, "usage_hourly_rollups", ["organization_id", "project_id", "api_key_id", "model", "client_label"], KEY_COLUMNS, aggregateHourlyUsageRollups(events), chunkSize);
}

/**
 * The same for the organization rollups (`usage_organization_hourly_rollups`: hour x organization
 * x model); the usage writer adds them in the transaction of the other rollups.
 */
export function organizationHourlyUsageRollupStatements(provider: DatabaseProvider, events: readonly UsageEventRecord[], chunkSize = provider === "sqlite" ? 20 : 500): SqlStatement[] {
  if (events.length === 0) return [];
  return hourlyRollupUpserts(provider, "usage_organization_hourly_rollups", ["organization_id", "model"], ["organization_id", "hour", "model"], aggregateOrganizationHourlyUsageRollups(events), chunkSize);
}
