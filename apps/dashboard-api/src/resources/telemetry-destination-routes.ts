import { type TelemetryDestinationConfig, telemetryDestinationKinds } from "@gateway/contracts";
import {
  createTelemetryDestination,
  deleteTelemetryDestination,
  getTelemetryDestinationWithConfig,
  listTelemetryDestinationsWithConfig,
  recordTelemetryDelivery,
  updateTelemetryDestination,
  type TelemetryDestinationWithConfig,
} from "@gateway/db";
import { z } from "zod";
import { createTraceId, deliverTelemetry } from "@gateway/pipeline";
import { deliveryUrl, displayUrl } from "../delivery/destination-url.js";
import { type DeliveryOutcome, dashboardUserAgent } from "../delivery/post-json.js";
import { deletedObjectSchema, displayName, idParams, iso, timestamp } from "../routing/common-schemas.js";
import { defineRoute, type DashboardRoute } from "../routing/dashboard-route.js";
import { fullList, listObjectSchema } from "../routing/list-page.js";
import type { DashboardServices } from "../services/dashboard-services.js";
import { auditChange, found, withConflict } from "./resource-helpers.js";

const headerRecord = z.record(z.string().regex(/^[A-Za-z0-9-]{1,100}$/), z.string().max(4000));
const otlpConfig = z.object({
  kind: z.literal("otlp_http"),
  endpoint: deliveryUrl.describe("The OTLP/HTTP traces URL, e.g. https://collector.example.com:4318/v1/traces"),
  headers: headerRecord.default({}).describe("Sent with every export (e.g. an API key header); stored encrypted"),
});
const webhookConfig = z.object({
  kind: z.literal("webhook"),
  url: deliveryUrl,
  secret: z.string().min(16).max(500).describe("HMAC-SHA256 key for the `X-Gateway-Signature` header; stored encrypted"),
  headers: headerRecord.default({}),
});

/** A telemetry destination as the API shows it (no secrets, no header values). */
export const telemetryDestinationSchema = z.object({
  id: z.string(),
  name: z.string(),
  kind: z.enum(telemetryDestinationKinds),
  url: z.string().describe("The endpoint without query string"),
  header_names: z.array(z.string()),
  has_secret: z.boolean(),
  enabled: z.boolean(),
  last_delivery_at: timestamp.nullable(),
  last_delivery_ok: z.boolean().nullable(),
  created_at: timestamp,
  updated_at: timestamp,
  object: z.literal("telemetry.destination"),
});

/** The test result of the spec: `{reference, delivered, object}`. */
export const telemetryTestSchema = z.object({
  reference: z.string().describe("The test trace id (OTLP) or event id (webhook)"),
  delivered: z.boolean().describe("The far end answered 2xx in time"),
  object: z.literal("telemetry.destination.test"),
});

/** A destination with its configuration (decrypted by `@gateway/db`). */
type DestinationRow = TelemetryDestinationWithConfig;

const createBody = z.object({
  name: displayName,
  enabled: z.boolean().default(true),
  config: z.discriminatedUnion("kind", [otlpConfig, webhookConfig]),
});
const updateBody = z
  .object({ name: displayName, enabled: z.boolean(), config: z.discriminatedUnion("kind", [otlpConfig, webhookConfig]).describe("Replaces the whole configuration") })
  .partial()
  .refine((value) => Object.keys(value).length > 0, "Send at least one field to change.");
const params = idParams("destination_id");

/**
 * Sends one test trace (a span named `gateway.telemetry.test`) or one signed `telemetry.test`
 * webhook event to a destination, through the pipeline's delivery (the one the gateway exports with).
 */
export async function sendTelemetryTest(config: TelemetryDestinationConfig, timeoutMs: number, now: Date): Promise<{ reference: string; outcome: DeliveryOutcome }> {
  const span = { traceId: createTraceId(), name: "gateway.telemetry.test", startTime: now, endTime: new Date(now.getTime() + 1), attributes: { "gateway.test": true, "gateway.event": "telemetry.test" } };
  const { reference, ...outcome } = await deliverTelemetry(config, [span], { timeoutMs, now, eventType: "telemetry.test", userAgent: dashboardUserAgent });
  return { reference, outcome };
}

/** Telemetry destination routes under `/api/telemetry-destinations`. */
export function createTelemetryDestinationRoutes(services: DashboardServices): DashboardRoute[] {
  const secretBox = { secretBox: services.secrets };
  const present = (row: DestinationRow): z.infer<typeof telemetryDestinationSchema> => {
    const { config } = row;
    return {
      id: row.id,
      name: row.name,
      kind: config.kind,
      url: displayUrl(config.kind === "otlp_http" ? config.endpoint : config.url),
      header_names: Object.keys(config.headers ?? {}),
      has_secret: config.kind === "webhook",
      enabled: row.enabled,
      last_delivery_at: iso(row.lastDeliveryAt),
      last_delivery_ok: row.lastDeliveryOk,
      created_at: iso(row.createdAt),
      updated_at: iso(row.updatedAt),
      object: "telemetry.destination",
    };
  };
  const load = (organizationId: string, id: string) =>
    getTelemetryDestinationWithConfig(services.database, organizationId, id, secretBox).then((row) => found(row, "Telemetry destination"));
  const conflict = "A telemetry destination with this name already exists.";

  return [
    defineRoute({
      method: "post",
      path: "/api/telemetry-destinations",
      operationId: "create_telemetry_destination",
      summary: "Create a telemetry destination",
      description: "`otlp_http`: OTLP/HTTP JSON traces. `webhook`: JSON events signed with `X-Gateway-Signature: t=<unix>,v1=<hex HMAC-SHA256(secret, \"<t>.<body>\")>`.",
      tag: "Telemetry",
      access: "telemetry:write",
      body: createBody,
      exampleBody: { name: "collector", config: { kind: "otlp_http", endpoint: "https://collector.example.com:4318/v1/traces", headers: {} } },
      responses: [{ status: 201, description: "The destination", schema: telemetryDestinationSchema }],
      async handler(context) {
        const { principal, body } = context;
        const created = await withConflict(
          () =>
            createTelemetryDestination(
              services.database,
              { organizationId: principal.organization.id, name: body.name, kind: body.config.kind, config: body.config, enabled: body.enabled },
              secretBox,
            ),
          conflict,
          "name",
        );
        const row = { ...created, config: body.config };
        const after = present(row);
        await auditChange(services, context, { action: "telemetry_destination.created", targetType: "telemetry_destination", targetId: row.id, after });
        return { status: 201, body: after };
      },
    }),
    defineRoute({
      method: "get",
      path: "/api/telemetry-destinations",
      operationId: "list_telemetry_destinations",
      summary: "List telemetry destinations",
      tag: "Telemetry",
      access: "telemetry:read",
      responses: [{ status: 200, description: "Destinations", schema: listObjectSchema(telemetryDestinationSchema) }],
      async handler({ principal }) {
        const rows = await listTelemetryDestinationsWithConfig(services.database, principal.organization.id, secretBox);
        return { status: 200, body: fullList(rows.map(present)) };
      },
    }),
    defineRoute({
      method: "get",
      path: "/api/telemetry-destinations/{destination_id}",
      operationId: "get_telemetry_destination",
      summary: "Get a telemetry destination",
      tag: "Telemetry",
      access: "telemetry:read",
      params,
      responses: [{ status: 200, description: "The destination", schema: telemetryDestinationSchema }],
      async handler({ principal, params: { destination_id } }) {
        return { status: 200, body: present(await load(principal.organization.id, destination_id)) };
      },
    }),
    defineRoute({
      method: "patch",
      path: "/api/telemetry-destinations/{destination_id}",
      operationId: "update_telemetry_destination",
      summary: "Update a telemetry destination",
      tag: "Telemetry",
      access: "telemetry:write",
      params,
      body: updateBody,
      exampleBody: { enabled: false },
      responses: [{ status: 200, description: "The destination", schema: telemetryDestinationSchema }],
      async handler(context) {
        const { principal, params: { destination_id }, body } = context;
        const existing = await load(principal.organization.id, destination_id);
        const updated = await withConflict(
          () =>
            updateTelemetryDestination(
              services.database,
              existing.organizationId,
              existing.id,
              {
                ...(body.name !== undefined ? { name: body.name } : {}),
                ...(body.enabled !== undefined ? { enabled: body.enabled } : {}),
                ...(body.config !== undefined ? { kind: body.config.kind, config: body.config } : {}),
              },
              secretBox,
            ),
          conflict,
          "name",
        );
        const row = { ...updated, config: body.config ?? existing.config };
        const after = present(row);
        await auditChange(services, context, { action: "telemetry_destination.updated", targetType: "telemetry_destination", targetId: row.id, before: present(existing), after });
        return { status: 200, body: after };
      },
    }),
    defineRoute({
      method: "delete",
      path: "/api/telemetry-destinations/{destination_id}",
      operationId: "delete_telemetry_destination",
      summary: "Delete a telemetry destination",
      tag: "Telemetry",
      access: "telemetry:write",
      params,
      responses: [{ status: 200, description: "Deleted", schema: deletedObjectSchema("telemetry.destination") }],
      async handler(context) {
        const { principal, params: { destination_id } } = context;
        const existing = await load(principal.organization.id, destination_id);
        await deleteTelemetryDestination(services.database, existing.organizationId, existing.id);
        await auditChange(services, context, { action: "telemetry_destination.deleted", targetType: "telemetry_destination", targetId: existing.id, before: present(existing) });
        return { status: 200, body: { id: existing.id, object: "telemetry.destination", deleted: true } };
      },
    }),
    defineRoute({
      method: "post",
      path: "/api/telemetry-destinations/{destination_id}/test",
      operationId: "test_telemetry_destination",
      summary: "Send a test event to a telemetry destination",
      description:
        "Really sends one test trace (OTLP: a span named `gateway.telemetry.test`, `reference` = its trace id) or one " +
        "signed `telemetry.test` webhook event (`reference` = the event id, also in `X-Gateway-Event-Id`). `delivered` is " +
        "false, not an HTTP error, when the far end refuses, fails or does not answer within `DASHBOARD_DELIVERY_TIMEOUT_MS`.",
      tag: "Telemetry",
      access: "telemetry:write",
      params,
      responses: [{ status: 200, description: "The test result", schema: telemetryTestSchema }],
      async handler(context) {
        const { principal, params: { destination_id } } = context;
        const existing = await load(principal.organization.id, destination_id);
        const { reference, outcome } = await sendTelemetryTest(existing.config, services.settings.deliveryTimeoutMs, services.now());
        await recordTelemetryDelivery(services.database, existing.id, { ok: outcome.delivered, at: services.now() });
        await auditChange(services, context, {
          action: "telemetry_destination.tested",
          targetType: "telemetry_destination",
          targetId: existing.id,
          after: { reference, delivered: outcome.delivered, status: outcome.status, failure: outcome.failure },
        });
        return { status: 200, body: { reference, delivered: outcome.delivered, object: "telemetry.destination.test" } };
      },
    }),
  ];
}
