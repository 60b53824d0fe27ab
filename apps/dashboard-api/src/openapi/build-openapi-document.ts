import { z } from "zod";
import type { DashboardRoute } from "../routing/dashboard-route.js";

/** An OpenAPI 3.1 document (loosely typed: it is generated, then served as JSON). */
export type OpenApiDocument = Record<string, unknown> & { openapi: string; paths: Record<string, Record<string, unknown>> };

const errorBodySchema = z.object({
  error: z.object({
    code: z.string(),
    message: z.string(),
    details: z.record(z.string(), z.unknown()),
  }),
});

/** Error statuses documented for every route, besides its own ones. */
function errorResponsesFor(route: DashboardRoute): Record<string, unknown> {
  const reference = { $ref: "#/components/responses/DashboardError" };
  const responses: Record<string, unknown> = {};
  if (route.params || route.query || route.body) responses["400"] = reference;
  if (route.access !== "public") {
    responses["401"] = reference;
    responses["403"] = reference;
  }
  if (route.params) responses["404"] = reference;
  return responses;
}

function toJsonSchema(schema: z.ZodType, io: "input" | "output"): Record<string, unknown> {
  const json = z.toJSONSchema(schema, { target: "draft-2020-12", io, unrepresentable: "any" }) as Record<string, unknown>;
  delete json.$schema;
  return json;
}

/**
 * Builds the OpenAPI 3.1 document from the route table: paths, parameters, request bodies and
 * responses all come from the routes' zod schemas (zod 4 `z.toJSONSchema`), so the document
 * cannot drift from what the server validates.
 */
export function buildOpenApiDocument(routes: readonly DashboardRoute[], options: { version?: string; serverUrl?: string } = {}): OpenApiDocument {
  const paths: Record<string, Record<string, unknown>> = {};
  for (const route of routes) {
    const parameters: unknown[] = [];
    if (route.params) {
      const schema = toJsonSchema(route.params, "input") as { properties?: Record<string, unknown> };
      for (const [name, property] of Object.entries(schema.properties ?? {})) {
        parameters.push({ name, in: "path", required: true, schema: property });
      }
    }
    if (route.query) {
      const schema = toJsonSchema(route.query, "input") as { properties?: Record<string, unknown>; required?: string[] };
      for (const [name, property] of Object.entries(schema.properties ?? {})) {
        const { description, ...rest } = property as { description?: string };
        parameters.push({
          name,
          in: "query",
          required: schema.required?.includes(name) ?? false,
          ...(description ? { description } : {}),
          schema: rest,
        });
      }
    }
    const responses: Record<string, unknown> = {};
    for (const response of route.responses) {
      const content: Record<string, unknown> = {};
      if (response.schema) content["application/json"] = { schema: toJsonSchema(response.schema, "output") };
      if (response.eventStream) content["text/event-stream"] = { schema: { type: "string", description: "Server-sent events" } };
      responses[String(response.status)] = {
        description: response.description,
        ...(Object.keys(content).length > 0 ? { content } : {}),
      };
    }
    Object.assign(responses, errorResponsesFor(route), responses);
    const operation: Record<string, unknown> = {
      operationId: route.operationId,
      summary: route.summary,
      ...(route.description ? { description: route.description } : {}),
      tags: [route.tag],
      ...(parameters.length > 0 ? { parameters } : {}),
      ...(route.body
        ? {
            requestBody: {
              required: true,
              content: {
                "application/json": {
                  schema: toJsonSchema(route.body, "input"),
                  ...(route.exampleBody !== undefined ? { example: route.exampleBody } : {}),
                },
              },
            },
          }
        : {}),
      responses,
      security: route.access === "public" ? [] : [{ sessionCookie: [] }],
      ...(route.access !== "public" && route.access !== "session" ? { "x-permission": route.access } : {}),
    };
    paths[route.path] ??= {};
    paths[route.path]![route.method] = operation;
  }
  return {
    openapi: "3.1.0",
    info: {
      title: "AI Gateway dashboard API",
      version: options.version ?? "0.1.0",
      description:
        "Dashboard management API (session cookie `gateway_session`). Not a public integration contract. " +
        "Each operation's `x-permission` names the permission it needs.",
    },
    ...(options.serverUrl ? { servers: [{ url: options.serverUrl }] } : {}),
    paths,
    components: {
      securitySchemes: {
        sessionCookie: { type: "apiKey", in: "cookie", name: "gateway_session" },
      },
      schemas: { DashboardError: toJsonSchema(errorBodySchema, "output") },
      responses: {
        DashboardError: {
          description: "Dashboard error body",
          content: { "application/json": { schema: { $ref: "#/components/schemas/DashboardError" } } },
        },
      },
    },
  };
}
