import { connectionSettingsInputSchema, providerKindSchema, registeredProviderList } from "@gateway/provider-adapters";
import { z } from "zod";
import { defineRoute, type DashboardRoute } from "../routing/dashboard-route.js";
import { fullList, listObjectSchema } from "../routing/list-page.js";

/** A connection kind as the dashboard's connection form needs it. */
const connectionKindSchema = z.object({
  kind: providerKindSchema,
  label: z.string(),
  network: z.boolean().describe("Whether connections of this kind call an upstream (false: answered offline)"),
  default_base_url: z.string().nullable().describe("The API a connection without base_url calls; null: base_url is required (network kinds)"),
  settings_schema: z.record(z.string(), z.unknown()).describe("JSON Schema of the kind's `settings` object"),
  object: z.literal("connection_kind"),
});

/** `GET /api/connection-kinds`: each registered provider kind with its settings' JSON Schema. */
export function createConnectionKindRoutes(): DashboardRoute[] {
  // The registry is fixed for the life of the process: rendered once.
  let kinds: z.infer<typeof connectionKindSchema>[] | undefined;
  return [
    defineRoute({
      method: "get",
      path: "/api/connection-kinds",
      operationId: "list_connection_kinds",
      summary: "List connection kinds and their settings",
      tag: "Connections",
      access: "connections:read",
      responses: [{ status: 200, description: "Connection kinds", schema: listObjectSchema(connectionKindSchema) }],
      async handler() {
        kinds ??= registeredProviderList().map((provider) => ({
          kind: providerKindSchema.parse(provider.kind),
          label: provider.label,
          network: provider.network,
          default_base_url: provider.defaultBaseUrl,
          settings_schema: z.toJSONSchema(connectionSettingsInputSchema(provider.kind), { io: "input", unrepresentable: "any" }) as Record<string, unknown>,
          object: "connection_kind" as const,
        }));
        return { status: 200, body: fullList(kinds) };
      },
    }),
  ];
}
