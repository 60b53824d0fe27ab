import { listUsageSeries, usageLatencyBucketBoundsMs } from "@gateway/db";
import { GatewayError } from "@gateway/errors";
import { z } from "zod";
import { resourceId, timestamp } from "../routing/common-schemas.js";
import { defineRoute, type DashboardRoute } from "../routing/dashboard-route.js";
import { fullList, listObjectSchema } from "../routing/list-page.js";
import type { DashboardServices } from "../services/dashboard-services.js";
import { estimateLatencyPercentile } from "../usage/estimate-latency-percentile.js";

const hourMs = 3_600_000;
const dayMs = 86_400_000;
/** Longest range per interval: 31 days of hours (744 points), 366 days of days. */
const maximumRangeMs = { hour: 31 * dayMs, day: 366 * dayMs } as const;
/** Default range per interval: the last 24 hours, the last 30 days. */
const defaultRangeMs = { hour: dayMs, day: 30 * dayMs } as const;

/** One point of a usage series. */
export const usageSeriesPointSchema = z.object({
  bucket_start: timestamp.describe("Start of the UTC hour or day"),
  group_by: z.enum(["none", "model", "api_key", "project", "client_label"]),
  key: z.string().describe("The model (`<provider>/<model>`), API key id, project id or client label; empty when unknown or not grouped"),
  request_count: z.number().int(),
  error_count: z.number().int().describe("Calls answered with a status >= 400"),
  input_tokens: z.number().int(),
  output_tokens: z.number().int(),
  cache_read_tokens: z.number().int(),
  cache_write_tokens: z.number().int(),
  cost_micros: z.number().int(),
  latency_ms_mean: z.number().nullable(),
  latency_ms_p50: z.number().nullable().describe("Estimated from a fixed histogram (upper bound of the bucket holding the median call)"),
  latency_ms_p95: z.number().nullable().describe("Estimated from a fixed histogram (upper bound of the bucket holding the 95th percentile call)"),
  latency_ms_max: z.number().nullable(),
  time_to_first_byte_ms_mean: z.number().nullable().describe("Mean over the calls that streamed"),
  object: z.literal("usage.series_point"),
});

const dateTime = z.iso.datetime({ offset: true });
const seriesQuery = z.object({
  interval: z.enum(["hour", "day"]).default("hour").describe("Bucket size (UTC)"),
  group_by: z.enum(["none", "model", "api_key", "project", "client_label"]).default("none"),
  from: dateTime.optional().describe("Inclusive start (ISO 8601); default 24 hours (hour) or 30 days (day) before `to`"),
  to: dateTime.optional().describe("Exclusive end (ISO 8601); default now"),
  project_id: resourceId.optional(),
  api_key_id: resourceId.optional(),
});

/** `/api/usage/series`: usage over time from the usage events, with client labels, latency and errors. */
export function createUsageSeriesRoutes(services: DashboardServices): DashboardRoute[] {
  return [
    defineRoute({
      method: "get",
      path: "/api/usage/series",
      operationId: "list_usage_series",
      summary: "Usage over time",
      description:
        "Calls, errors, tokens, cost and latency per UTC hour or day and per model, API key, project or client label " +
        "(`group_by`), oldest bucket first. Read from the hourly rollups (written with every usage batch); the partial hours " +
        "at either end of the range are summed from the usage events. Ranges: at most 31 days of hours or 366 days of days. Buckets without calls are absent.",
      tag: "Usage",
      access: "usage:read",
      query: seriesQuery,
      responses: [{ status: 200, description: "Series points", schema: listObjectSchema(usageSeriesPointSchema) }],
      async handler({ principal, query }) {
        const unit = query.interval === "hour" ? hourMs : dayMs;
        const to = query.to ? new Date(query.to) : services.now();
        const from = query.from ? new Date(query.from) : new Date(Math.floor((to.getTime() - defaultRangeMs[query.interval]) / unit) * unit);
        if (from.getTime() >= to.getTime()) throw new GatewayError("invalid_request", { message: "from must be before to.", param: "from" });
        if (to.getTime() - from.getTime() > maximumRangeMs[query.interval]) {
          throw new GatewayError("invalid_request", {
            message: query.interval === "hour" ? "Hourly series cover at most 31 days; use interval=day." : "Daily series cover at most 366 days.",
            param: "from",
          });
        }
        const rows = await listUsageSeries(services.database, {
          organizationId: principal.organization.id,
          from,
          to,
          interval: query.interval,
          groupBy: query.group_by,
          ...(query.project_id ? { projectId: query.project_id } : {}),
          ...(query.api_key_id ? { apiKeyId: query.api_key_id } : {}),
        });
        const points = rows.map((row) => {
          const histogram = { boundsMs: usageLatencyBucketBoundsMs, counts: row.latencyHistogram, maxMs: row.latencyMsMax };
          return {
            bucket_start: new Date(query.interval === "hour" ? `${row.bucket}:00:00.000Z` : `${row.bucket}T00:00:00.000Z`).toISOString(),
            group_by: query.group_by,
            key: row.key,
            request_count: row.requestCount,
            error_count: row.errorCount,
            input_tokens: row.inputTokens,
            output_tokens: row.outputTokens,
            cache_read_tokens: row.cacheReadTokens,
            cache_write_tokens: row.cacheWriteTokens,
            cost_micros: row.costMicros,
            latency_ms_mean: row.requestCount > 0 ? Math.round(row.latencyMsTotal / row.requestCount) : null,
            latency_ms_p50: estimateLatencyPercentile(histogram, 0.5),
            latency_ms_p95: estimateLatencyPercentile(histogram, 0.95),
            latency_ms_max: row.requestCount > 0 ? row.latencyMsMax : null,
            time_to_first_byte_ms_mean: row.timeToFirstByteCount > 0 ? Math.round(row.timeToFirstByteMsTotal / row.timeToFirstByteCount) : null,
            object: "usage.series_point" as const,
          };
        });
        return { status: 200, body: fullList(points) };
      },
    }),
  ];
}
