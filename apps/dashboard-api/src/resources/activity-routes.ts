import { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import {
  getActivityCall,
  iterateActivityCalls,
  listActivityCalls,
  listActivitySessionCalls,
  listActivitySessions,
  readUsageEventContent,
  type ActivityCall,
  type ActivityFilters,
} from "@gateway/db";
import { GatewayError } from "@gateway/errors";
import { stringify as stringifyCsv } from "csv-stringify/sync";
import { z } from "zod";
import { type DashboardPrincipal, visibleProjectIdsOf } from "../auth/dashboard-principal.js";
import { iso, resourceId, timestamp } from "../routing/common-schemas.js";
import { defineRoute, type DashboardRoute } from "../routing/dashboard-route.js";
import { listObjectSchema, pageOf } from "../routing/list-page.js";
import type { DashboardServices } from "../services/dashboard-services.js";
import { recordAuditEvent } from "../services/record-audit-event.js";

/** One recorded call. */
export const activityCallSchema = z.object({
  id: z.string(),
  request_id: z.string(),
  occurred_at: timestamp,
  project_id: z.string().nullable(),
  team_id: z.string().nullable(),
  api_key_id: z.string().nullable(),
  user_id: z.string().nullable(),
  endpoint: z.string(),
  requested_model: z.string().nullable(),
  model: z.string().nullable().describe("The served model"),
  provider: z.string().nullable(),
  connection_id: z.string().nullable().describe("The connection that served the call"),
  status: z.number().int(),
  error_code: z.string().nullable(),
  input_tokens: z.number().int(),
  output_tokens: z.number().int(),
  cache_read_tokens: z.number().int(),
  cache_write_tokens: z.number().int(),
  reasoning_tokens: z.number().int(),
  cost_micros: z.number().int(),
  latency_ms: z.number().int(),
  time_to_first_byte_ms: z.number().int().nullable(),
  gateway_overhead_ms: z.number().int().nullable(),
  client_label: z.string().nullable(),
  client_version: z.string().nullable(),
  session_id: z.string().nullable(),
  metadata: z.record(z.string(), z.string()),
  guardrail_flags: z.array(z.string()),
  budget_outcome: z.string().nullable(),
  rate_limit_outcome: z.string().nullable(),
  attempt_count: z.number().int(),
  has_content: z.boolean().describe("Whether captured content can be read at `/api/activity/{request_id}/content`"),
  object: z.literal("activity.call"),
});

const attemptSchema = z.object({
  connection_id: z.string().nullable(),
  provider: z.string().nullable(),
  model: z.string().nullable(),
  status: z.number().int().nullable().describe("Upstream status; null when no answer came"),
  latency_ms: z.number(),
  error_code: z.string().nullable(),
  outcome: z.enum(["served", "retried", "fell_back", "failed"]),
  reason: z.string().nullable().describe("Why it was retried or fell back: `upstream_5xx`, `rate_limited`, `connect_failure`, `timeout`, ..."),
});

/** Everything recorded of one call except its content. */
export const activityCallDetailSchema = activityCallSchema.extend({
  object: z.literal("activity.call.detail"),
  attempts: z.array(attemptSchema),
  error: z.object({ code: z.string().nullable(), message: z.string().nullable() }).nullable(),
  timings: z.object({
    gateway_overhead_ms: z.number().int().nullable(),
    time_to_first_byte_ms: z.number().int().nullable(),
    total_ms: z.number().int(),
  }),
});

/** Captured request and response of one call. */
export const activityContentSchema = z.object({
  object: z.literal("activity.content"),
  request: z.unknown(),
  response: z.unknown(),
  truncated: z.boolean(),
  captured_at: timestamp,
});

/** One session: calls grouped by (project, API key, user, session id). */
export const activitySessionSchema = z.object({
  object: z.literal("activity.session"),
  session_id: z.string(),
  project_id: z.string().nullable(),
  api_key_id: z.string().nullable(),
  user_id: z.string().nullable(),
  first_at: timestamp,
  last_at: timestamp,
  call_count: z.number().int(),
  error_count: z.number().int(),
  input_tokens: z.number().int(),
  output_tokens: z.number().int(),
  cost_micros: z.number().int(),
  models: z.array(z.string()),
});

const dateTime = z.iso.datetime({ offset: true });
const text = z.string().min(1).max(400);
const sessionId = z.string().min(1).max(128).regex(/^[A-Za-z0-9._:-]+$/);
const metadataPair = z
  .string()
  .max(330)
  .regex(/^[A-Za-z0-9_.-]{1,64}:[\s\S]{0,256}$/, "`key:value` with a key of letters, digits, `_`, `.` or `-` (at most 64) and a value of at most 256 characters");
const count = z.coerce.number().int().min(0).max(Number.MAX_SAFE_INTEGER);
const pageShape = {
  limit: z.coerce.number().int().min(1).max(200).default(50).describe("Page size (1-200, default 50)."),
  cursor: z.string().min(1).max(600).optional().describe("The `next_cursor` of the previous page."),
};

/** The filters of the list, the sessions and the export (all must hold). */
const filterShape = {
  from: dateTime.optional().describe("Inclusive lower bound of occurred_at (ISO 8601)"),
  to: dateTime.optional().describe("Exclusive upper bound of occurred_at (ISO 8601)"),
  project_id: resourceId.optional(),
  team_id: resourceId.optional(),
  api_key_id: resourceId.optional(),
  user_id: resourceId.optional(),
  requested_model: text.optional().describe("The model the caller asked for"),
  model: text.optional().describe("The served model, as recorded"),
  connection_id: resourceId.optional().describe("The connection that served the call"),
  endpoint: z.string().min(1).max(64).optional(),
  status: z
    .union([z.enum(["2xx", "3xx", "4xx", "5xx"]), z.coerce.number().int().min(100).max(599)])
    .optional()
    .describe("An HTTP status, or a class: `2xx`, `3xx`, `4xx`, `5xx`"),
  error_code: z.string().min(1).max(128).optional(),
  client_label: text.optional(),
  client_version: text.optional(),
  session_id: sessionId.optional(),
  metadata: z
    .union([metadataPair, z.array(metadataPair).max(16)])
    .optional()
    .describe("`key:value`; repeat for several pairs (all must match)"),
  min_latency_ms: count.optional(),
  min_cost_micros: count.optional(),
  max_cost_micros: count.optional(),
  guardrail_flagged: z.enum(["true", "false"]).optional().describe("`true`: only calls a guardrail flagged"),
  budget_outcome: z.string().min(1).max(64).optional(),
  rate_limit_outcome: z.string().min(1).max(64).optional().describe("`limited`: calls a rate limit refused"),
  request_id: z.string().min(1).max(200).optional(),
};
const listQuery = z.object({ ...filterShape, ...pageShape });
const exportQuery = z.object({ ...filterShape, format: z.enum(["csv", "ndjson"]).default("ndjson") });
const requestIdParams = z.object({ request_id: z.string().min(1).max(200) });
const sessionParams = z.object({ session_id: sessionId });
const sessionCallsQuery = z.object({ project_id: resourceId.optional(), api_key_id: resourceId.optional(), user_id: resourceId.optional(), ...pageShape });

const filterQuery = z.object(filterShape);
type FilterQuery = z.output<typeof filterQuery>;

/** The database filters of a parsed query, scoped to the principal's organization and projects. */
function toActivityFilters(principal: DashboardPrincipal, query: FilterQuery): ActivityFilters {
  const metadata = query.metadata === undefined ? [] : [query.metadata].flat();
  return {
    organizationId: principal.organization.id,
    visibleProjectIds: visibleProjectIdsOf(principal),
    ...(query.from ? { from: new Date(query.from) } : {}),
    ...(query.to ? { to: new Date(query.to) } : {}),
    ...(query.project_id ? { projectId: query.project_id } : {}),
    ...(query.team_id ? { teamId: query.team_id } : {}),
    ...(query.api_key_id ? { apiKeyId: query.api_key_id } : {}),
    ...(query.user_id ? { userId: query.user_id } : {}),
    ...(query.requested_model ? { requestedModel: query.requested_model } : {}),
    ...(query.model ? { model: query.model } : {}),
    ...(query.connection_id ? { connectionId: query.connection_id } : {}),
    ...(query.endpoint ? { endpoint: query.endpoint } : {}),
    ...(query.status !== undefined ? { status: query.status } : {}),
    ...(query.error_code ? { errorCode: query.error_code } : {}),
    ...(query.client_label ? { clientLabel: query.client_label } : {}),
    ...(query.client_version ? { clientVersion: query.client_version } : {}),
    ...(query.session_id ? { sessionId: query.session_id } : {}),
    ...(metadata.length > 0
      ? {
          metadata: metadata.map((pair) => {
            const colon = pair.indexOf(":");
            return { key: pair.slice(0, colon), value: pair.slice(colon + 1) };
          }),
        }
      : {}),
    ...(query.min_latency_ms !== undefined ? { minLatencyMs: query.min_latency_ms } : {}),
    ...(query.min_cost_micros !== undefined ? { minCostMicros: query.min_cost_micros } : {}),
    ...(query.max_cost_micros !== undefined ? { maxCostMicros: query.max_cost_micros } : {}),
    ...(query.guardrail_flagged !== undefined ? { guardrailFlagged: query.guardrail_flagged === "true" } : {}),
    ...(query.budget_outcome ? { budgetOutcome: query.budget_outcome } : {}),
    ...(query.rate_limit_outcome ? { rateLimitOutcome: query.rate_limit_outcome } : {}),
    ...(query.request_id ? { requestId: query.request_id } : {}),
  };
}

/** The API shape of a call (without `object`, which list and detail set differently). */
function presentCallFields(call: ActivityCall) {
  return {
    id: call.id,
    request_id: call.requestId,
    occurred_at: iso(call.occurredAt),
    project_id: call.projectId,
    team_id: call.teamId,
    api_key_id: call.apiKeyId,
    user_id: call.userId,
    endpoint: call.endpoint,
    requested_model: call.requestedModel,
    model: call.model,
    provider: call.provider,
    connection_id: call.connectionId,
    status: call.status,
    error_code: call.errorCode,
    input_tokens: call.inputTokens,
    output_tokens: call.outputTokens,
    cache_read_tokens: call.cacheReadTokens,
    cache_write_tokens: call.cacheWriteTokens,
    reasoning_tokens: call.reasoningTokens,
    cost_micros: call.costMicros,
    latency_ms: call.latencyMs,
    time_to_first_byte_ms: call.timeToFirstByteMs,
    gateway_overhead_ms: call.gatewayOverheadMs,
    client_label: call.clientLabel,
    client_version: call.clientVersion,
    session_id: call.sessionId,
    metadata: call.metadata,
    guardrail_flags: call.guardrailFlags,
    budget_outcome: call.budgetOutcome,
    rate_limit_outcome: call.rateLimitOutcome,
    attempt_count: call.attemptCount,
    has_content: call.hasContent,
  };
}

/** A call as the list, the session view and the export show it. */
export function presentActivityCall(call: ActivityCall) {
  return { ...presentCallFields(call), object: "activity.call" as const };
}

/** The CSV columns of the export: the call's fields; metadata and flags as JSON text. */
const csvColumns = Object.keys(activityCallSchema.shape).filter((column) => column !== "object");

function csvRecord(call: ActivityCall): Record<string, unknown> {
  const fields = presentCallFields(call);
  return { ...fields, metadata: JSON.stringify(fields.metadata), guardrail_flags: JSON.stringify(fields.guardrail_flags) };
}

/** Activity routes: the searchable log of recorded calls, one call's detail and content, sessions, export. */
export function createActivityRoutes(services: DashboardServices): DashboardRoute[] {
  // Express matches in order: the fixed paths (`sessions`, `export`) come before `{request_id}`.
  return [
    defineRoute({
      method: "get",
      path: "/api/activity",
      operationId: "list_activity",
      summary: "Search recorded calls",
      description:
        "Recorded gateway calls, newest first, with filters (all must hold). Cursor pagination on (occurred_at, id): " +
        "calls recorded while paging never shift or repeat rows. Members and viewers see the calls of their projects only.",
      tag: "Activity",
      access: "activity:read",
      query: listQuery,
      responses: [{ status: 200, description: "A page of calls", schema: listObjectSchema(activityCallSchema) }],
      async handler({ principal, query }) {
        const page = await listActivityCalls(services.database, {
          ...toActivityFilters(principal, query),
          limit: query.limit,
          ...(query.cursor ? { cursor: query.cursor } : {}),
        });
        return { status: 200, body: pageOf(page, presentActivityCall) };
      },
    }),
    defineRoute({
      method: "get",
      path: "/api/activity/sessions",
      operationId: "list_activity_sessions",
      summary: "List sessions",
      description:
        "Calls grouped by `X-Gateway-Session-ID`, kept apart per project, API key and user, with totals over the calls " +
        "matching the filters; latest activity first, cursor-paginated.",
      tag: "Activity",
      access: "activity:read",
      query: listQuery,
      responses: [{ status: 200, description: "A page of sessions", schema: listObjectSchema(activitySessionSchema) }],
      async handler({ principal, query }) {
        const page = await listActivitySessions(services.database, {
          ...toActivityFilters(principal, query),
          limit: query.limit,
          ...(query.cursor ? { cursor: query.cursor } : {}),
        });
        return {
          status: 200,
          body: pageOf(page, (session) => ({
            object: "activity.session" as const,
            session_id: session.sessionId,
            project_id: session.projectId,
            api_key_id: session.apiKeyId,
            user_id: session.userId,
            first_at: iso(session.firstAt),
            last_at: iso(session.lastAt),
            call_count: session.callCount,
            error_count: session.errorCount,
            input_tokens: session.inputTokens,
            output_tokens: session.outputTokens,
            cost_micros: session.costMicros,
            models: session.models,
          })),
        };
      },
    }),
    defineRoute({
      method: "get",
      path: "/api/activity/sessions/{session_id}",
      operationId: "list_activity_session_calls",
      summary: "One session's calls",
      description: "The calls of one session, oldest first. A session id is unique only per project, API key and user: narrow with those. 404 when no visible call has the id.",
      tag: "Activity",
      access: "activity:read",
      params: sessionParams,
      query: sessionCallsQuery,
      responses: [{ status: 200, description: "A page of calls", schema: listObjectSchema(activityCallSchema) }],
      async handler({ principal, params, query }) {
        const page = await listActivitySessionCalls(services.database, {
          organizationId: principal.organization.id,
          visibleProjectIds: visibleProjectIdsOf(principal),
          sessionId: params.session_id,
          ...(query.project_id ? { projectId: query.project_id } : {}),
          ...(query.api_key_id ? { apiKeyId: query.api_key_id } : {}),
          ...(query.user_id ? { userId: query.user_id } : {}),
          limit: query.limit,
          ...(query.cursor ? { cursor: query.cursor } : {}),
        });
        // A session with no call the reader may see does not exist for them (like any other id).
        if (page.data.length === 0 && query.cursor === undefined) throw new GatewayError("not_found", { message: "No session has this id." });
        return { status: 200, body: pageOf(page, presentActivityCall) };
      },
    }),
    defineRoute({
      method: "get",
      path: "/api/activity/export",
      operationId: "export_activity",
      summary: "Export recorded calls",
      description:
        "Every call matching the filters, newest first, streamed as CSV (header row; metadata and flags as JSON text) or " +
        "NDJSON (one `activity.call` per line), as an attachment. Read in keyset pages: memory stays constant whatever the size.",
      tag: "Activity",
      access: "activity:read",
      query: exportQuery,
      responses: [{ status: 200, description: "`text/csv` or `application/x-ndjson` attachment" }],
      async handler({ principal, query, response }) {
        const filters = toActivityFilters(principal, query);
        const stamp = services.now().toISOString().replace(/[:.]/g, "-");
        const csv = query.format === "csv";
        response.status(200);
        response.setHeader("content-type", csv ? "text/csv; charset=utf-8" : "application/x-ndjson; charset=utf-8");
        response.setHeader("content-disposition", `attachment; filename="activity-${stamp}.${csv ? "csv" : "ndjson"}"`);
        response.setHeader("cache-control", "no-store");
        const batches = iterateActivityCalls(services.database, filters, { batchSize: exportBatchSize });
        // The first page is read before anything is sent, so a failing query still answers a proper error.
        const first = await batches.next();
        const source = Readable.from(encodeExport(first.done ? [] : first.value, batches, csv ? "csv" : "ndjson"), { objectMode: true, highWaterMark: 2 });
        // `pipeline` waits on the socket's drain (backpressure: at most a couple of pages are held)
        // and stops reading the database when the client goes away.
        await pipeline(source, response).catch(() => undefined);
        return undefined;
      },
    }),
    defineRoute({
      method: "get",
      path: "/api/activity/{request_id}",
      operationId: "get_activity_call",
      summary: "One call in detail",
      description: "Everything recorded of one call: attempts (retries and fallbacks), timings, tokens, cost, flags, outcomes, the error. Content is read apart.",
      tag: "Activity",
      access: "activity:read",
      params: requestIdParams,
      responses: [{ status: 200, description: "The call", schema: activityCallDetailSchema }],
      async handler({ principal, params }) {
        const call = await getActivityCall(services.database, {
          organizationId: principal.organization.id,
          visibleProjectIds: visibleProjectIdsOf(principal),
          requestId: params.request_id,
        });
        if (call === null) throw new GatewayError("not_found", { message: "No recorded call has this request id." });
        return {
          status: 200,
          body: {
            ...presentCallFields(call),
            object: "activity.call.detail" as const,
            attempts: call.attempts,
            error: call.errorCode === null && call.errorMessage === null ? null : { code: call.errorCode, message: call.errorMessage },
            timings: { gateway_overhead_ms: call.gatewayOverheadMs, time_to_first_byte_ms: call.timeToFirstByteMs, total_ms: call.latencyMs },
          },
        };
      },
    }),
    defineRoute({
      method: "get",
      path: "/api/activity/{request_id}/content",
      operationId: "get_activity_call_content",
      summary: "One call's captured content",
      description:
        "The request and response captured for the call (after redaction guardrails; decisions are never captured). " +
        "Every read is written to the audit log as `activity.content_read`. 404 `content_not_captured` when none is stored.",
      tag: "Activity",
      access: "activity:content",
      params: requestIdParams,
      responses: [{ status: 200, description: "The captured content", schema: activityContentSchema }],
      async handler({ principal, params, request, requestId }) {
        const organizationId = principal.organization.id;
        // The call itself decides visibility (project scope), so content never outlives the rules of its call.
        const call = await getActivityCall(services.database, { organizationId, visibleProjectIds: visibleProjectIdsOf(principal), requestId: params.request_id });
        if (call === null) throw new GatewayError("not_found", { message: "No recorded call has this request id." });
        const content = await readUsageEventContent(services.database, services.secrets, { organizationId, requestId: params.request_id, now: services.now() });
        if (content === null) throw new GatewayError("content_not_captured", { message: "No content was captured for this call (or it has expired)." });
        // A read changes no configuration: recorded without announcing a control-plane change.
        await recordAuditEvent({ database: services.database, now: services.now }, { request, requestId }, {
          organizationId,
          actorId: principal.userId,
          action: "activity.content_read",
          targetType: "activity.call",
          targetId: params.request_id,
          after: { project_id: call.projectId, truncated: content.truncated },
        });
        return {
          status: 200,
          body: {
            object: "activity.content" as const,
            request: content.request,
            response: content.response,
            truncated: content.truncated,
            captured_at: iso(content.capturedAt),
          },
        };
      },
    }),
  ];
}

/**
 * Rows per database page of the export (one chunk written per page). A few thousand: each page is
 * one indexed query (fewer, larger pages spend less on planning and round trips) and memory stays
 * bounded by two pages (the one written and the one read ahead).
 */
const exportBatchSize = 5000;

/** The export's text, one chunk per page: CSV (a header row first) or NDJSON. */
async function* encodeExport(first: ActivityCall[], rest: AsyncIterator<ActivityCall[]>, format: "csv" | "ndjson"): AsyncGenerator<string> {
  let page: ActivityCall[] | undefined = first;
  let header = true;
  while (page !== undefined) {
    if (format === "csv") {
      yield stringifyCsv(page.map(csvRecord), { header, columns: csvColumns, escape_formulas: true, cast: { boolean: (value) => String(value) } });
      header = false;
    } else if (page.length > 0) {
      yield page.map((call) => `${JSON.stringify(presentActivityCall(call))}\n`).join("");
    }
    const next = await rest.next();
    page = next.done ? undefined : next.value;
  }
}
