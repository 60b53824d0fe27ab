import { decisionLimits, decisionRequestJsonSchema, decisionResponseJsonSchema } from "@gateway/decision-schema";
import { type RequestNumberFields, requestNumberFields } from "@gateway/pipeline";
import { z } from "zod";

/** An OpenAPI 3.1 document (generated, then served as JSON). */
export type GatewayOpenApiDocument = Record<string, unknown> & {
  openapi: string;
  paths: Record<string, Record<string, unknown>>;
};

const gatewayErrorBody = z.object({
  error: z.object({
    message: z.string(),
    code: z.string().nullable().optional(),
    type: z.string().nullable().optional(),
    param: z.union([z.string(), z.number().int()]).nullable().optional(),
    details: z.record(z.string(), z.unknown()).nullable().optional(),
  }),
  type: z.string().optional(),
  request_id: z.string().optional(),
});

const anthropicErrorBody = z.object({
  type: z.literal("error"),
  error: z.object({ type: z.string(), message: z.string() }),
  request_id: z.string().optional(),
});

// The inference bodies are the providers' own formats: the gateway checks the fields it routes
// on and passes the rest through (native) or translates the documented subset (translated).
/** The bounds the gateway checks on number fields (`null` counts as absent). */
const numberFields = (fields: RequestNumberFields) =>
  Object.fromEntries(Object.entries(fields).map(([name, schema]) => [name, schema.nullable().optional()]));
const chatCompletionRequest = z.looseObject({
  ...numberFields(requestNumberFields.chatCompletions),
  model: z.string().min(1),
  messages: z.array(z.looseObject({ role: z.string() })).min(1),
  stream: z.boolean().optional(),
});
const messagesRequest = z.looseObject({
  ...numberFields(requestNumberFields.messages),
  model: z.string().min(1),
  max_tokens: requestNumberFields.messages.max_tokens!,
  messages: z.array(z.looseObject({ role: z.enum(["user", "assistant"]) })),
  stream: z.boolean().optional(),
});
const responsesRequest = z.looseObject({
  ...numberFields(requestNumberFields.responses),
  model: z.string().min(1),
  input: z.union([z.string(), z.array(z.looseObject({}))]).optional().describe("A string, or input items; may be left out with previous_response_id"),
  instructions: z.string().nullable().optional(),
  previous_response_id: z.string().nullable().optional().describe("Continue a stored response of the same project (an unknown one: 400 previous_response_not_found)"),
  store: z.boolean().nullable().optional().describe("Store the answer (default: the project's content-capture setting; refused where the project does not capture content)"),
  stream: z.boolean().nullable().optional(),
  metadata: z.record(z.string(), z.string()).nullable().optional(),
});
const responseObject = z.looseObject({ id: z.string(), object: z.literal("response"), status: z.string(), output: z.array(z.looseObject({})), store: z.boolean(), previous_response_id: z.string().nullable() });
const inputItemList = z.object({ object: z.literal("list"), data: z.array(z.looseObject({ id: z.string(), type: z.string() })), first_id: z.string().nullable(), last_id: z.string().nullable(), has_more: z.boolean() });
const deletedResponse = z.object({ id: z.string(), object: z.literal("response.deleted"), deleted: z.literal(true) });
const embeddingsRequest = z.looseObject({
  model: z.string().min(1),
  input: z.union([z.string().min(1), z.array(z.string().min(1)).min(1).max(2048), z.array(z.number().int()), z.array(z.array(z.number().int()))]),
  encoding_format: z.enum(["float", "base64"]).optional(),
  ...numberFields(requestNumberFields.embeddings),
});
const embeddingsResponse = z.looseObject({
  object: z.literal("list"),
  data: z.array(z.object({ object: z.literal("embedding"), index: z.number().int(), embedding: z.union([z.array(z.number()), z.string()]) })),
  model: z.string(),
  usage: z.object({ prompt_tokens: z.number().int(), total_tokens: z.number().int() }),
});
const countTokensRequest = z.looseObject({ model: z.string().min(1), messages: z.array(z.looseObject({})) });
const countTokensResponse = z.object({ input_tokens: z.number().int().min(0) });
const openAiModelList = z.object({
  object: z.literal("list"),
  data: z.array(
    z.object({
      id: z.string(),
      object: z.literal("model"),
      created: z.number().int(),
      owned_by: z.string(),
      endpoints: z.array(z.enum(["chat_completions", "messages", "responses", "embeddings", "decisions"])).describe("Gateway extension: the endpoints this model serves"),
    }),
  ),
});
const anthropicModelList = z.object({
  data: z.array(z.object({ type: z.literal("model"), id: z.string(), display_name: z.string(), created_at: z.string() })),
  has_more: z.boolean(),
  first_id: z.string().nullable(),
  last_id: z.string().nullable(),
});

function jsonSchema(schema: z.ZodType): Record<string, unknown> {
  const json = z.toJSONSchema(schema, { target: "draft-2020-12", unrepresentable: "any" }) as Record<string, unknown>;
  delete json.$schema;
  return json;
}

function withoutDialect(schema: unknown): Record<string, unknown> {
  const { $schema: _dialect, ...rest } = schema as Record<string, unknown>;
  return rest;
}

const requestIdHeader = {
  "x-request-id": { description: "The gateway's identifier of this request (on every answer).", schema: { type: "string" } },
};

function errorResponses(statuses: number[], body: "GatewayError" | "AnthropicError"): Record<string, unknown> {
  const responses: Record<string, unknown> = {};
  for (const status of statuses) {
    responses[String(status)] = {
      description: `Error (${status}).`,
      headers: requestIdHeader,
      content: { "application/json": { schema: { $ref: `#/components/schemas/${body}` } } },
    };
  }
  return responses;
}

const gatewayHeaders = [
  { name: "X-Request-ID", in: "header", required: false, description: "Caller trace identifier, recorded.", schema: { type: "string", maxLength: decisionLimits.maxRequestIdLength } },
  { name: "X-Gateway-Client", in: "header", required: false, description: "`application[/version]` label for attribution; invalid values are ignored; never forwarded.", schema: { type: "string", maxLength: decisionLimits.maxClientLabelLength } },
  { name: "X-Gateway-Session", in: "header", required: false, description: "Session affinity on aliases that have it; invalid values are 400 there.", schema: { type: "string", minLength: 1, maxLength: 128, pattern: "^[A-Za-z0-9._:-]+$" } },
  { name: "X-Gateway-Session-ID", in: "header", required: false, description: "Conversation identifier recorded on usage; invalid values are ignored.", schema: { type: "string", minLength: 1, maxLength: 128, pattern: "^[A-Za-z0-9._:-]+$" } },
  { name: "X-Provider", in: "header", required: false, description: "Connection to use for an unqualified model; a provider-qualified model wins.", schema: { type: "string" } },
  {
    name: "X-Gateway-Metadata",
    in: "header",
    required: false,
    description:
      "A JSON object of string values recorded with the call (merged over the API key's default metadata) and filterable in the activity: at most 16 keys of `[A-Za-z0-9_.-]{1,64}`, values of at most 256 characters, at most 4096 bytes; invalid values are 400 naming the header; never forwarded.",
    schema: { type: "string", maxLength: 4096 },
  },
];

const json = (schemaName: string) => ({ "application/json": { schema: { $ref: `#/components/schemas/${schemaName}` } } });
const sse = { "text/event-stream": { schema: { type: "string", description: "Server-sent events in the provider format of the route." } } };

/**
 * The gateway's OpenAPI 3.1 document. Request and response schemas come from the same zod
 * schemas (and the decision contract's JSON Schema exports) the gateway validates with; the
 * paths are exactly the routes the app serves (a test checks both directions).
 */
export function buildGatewayOpenApiDocument(options: { version?: string } = {}): GatewayOpenApiDocument {
  const anthropicSecurity = [{ bearer: [] }, { anthropicApiKey: [] }];
  return {
    openapi: "3.1.0",
    info: {
      title: "AI Gateway inference API",
      version: options.version ?? "0.1.0",
      description: "OpenAI-compatible chat completions, the OpenAI Responses API (with stored conversations) and embeddings, Anthropic-compatible messages and token counting, typed decisions, model listing per API key, and the MCP endpoint serving the registered MCP servers.",
    },
    security: [{ bearer: [] }],
    paths: {
      "/v1/systemone": {
        post: {
          operationId: "create_system_one_decision",
          tags: ["Decisions"],
          parameters: gatewayHeaders,
          requestBody: { required: true, content: json("DecisionRequest") },
          responses: {
            "200": { description: "One answer under each question key.", headers: requestIdHeader, content: json("DecisionResponse") },
            ...errorResponses([400, 401, 403, 404, 408, 413, 422, 424, 429, 500, 502, 503, 504], "GatewayError"),
          },
        },
      },
      "/v1/chat/completions": {
        post: {
          operationId: "create_chat_completion",
          tags: ["OpenAI-compatible"],
          parameters: gatewayHeaders,
          requestBody: { required: true, content: json("ChatCompletionRequest") },
          responses: {
            "200": { description: "A chat completion, or a stream of `chat.completion.chunk` events when `stream` is true.", headers: requestIdHeader, content: { "application/json": { schema: { type: "object" } }, ...sse } },
            ...errorResponses([400, 401, 403, 404, 408, 413, 424, 429, 500, 502, 503, 504], "GatewayError"),
          },
        },
      },
      "/v1/responses": {
        post: {
          operationId: "create_response",
          tags: ["OpenAI-compatible"],
          parameters: gatewayHeaders,
          requestBody: { required: true, content: json("ResponsesRequest") },
          responses: {
            "200": {
              description: "A response object, or a stream of Responses events (`response.created` ... `response.completed`, each with `sequence_number`; a failure after the start ends with `error` and `response.failed`) when `stream` is true.",
              headers: requestIdHeader,
              content: { ...json("Response"), ...sse },
            },
            ...errorResponses([400, 401, 403, 404, 408, 413, 424, 429, 500, 502, 503, 504], "GatewayError"),
          },
        },
      },
      "/v1/responses/{id}": {
        get: {
          operationId: "get_response",
          tags: ["OpenAI-compatible"],
          parameters: [{ name: "id", in: "path", required: true, schema: { type: "string" } }],
          responses: {
            "200": { description: "A stored response of the key's project.", headers: requestIdHeader, content: json("Response") },
            ...errorResponses([400, 401, 404, 500], "GatewayError"),
          },
        },
        delete: {
          operationId: "delete_response",
          tags: ["OpenAI-compatible"],
          parameters: [{ name: "id", in: "path", required: true, schema: { type: "string" } }],
          responses: {
            "200": { description: "The stored response is deleted.", headers: requestIdHeader, content: json("DeletedResponse") },
            ...errorResponses([401, 404, 500], "GatewayError"),
          },
        },
      },
      "/v1/responses/{id}/input_items": {
        get: {
          operationId: "list_response_input_items",
          tags: ["OpenAI-compatible"],
          parameters: [
            { name: "id", in: "path", required: true, schema: { type: "string" } },
            { name: "limit", in: "query", required: false, schema: { type: "integer", minimum: 1, maximum: 100, default: 20 } },
            { name: "order", in: "query", required: false, schema: { type: "string", enum: ["asc", "desc"], default: "desc" } },
            { name: "after", in: "query", required: false, schema: { type: "string" } },
          ],
          responses: {
            "200": { description: "The input items of a stored response, in OpenAI's item shapes (typed messages, function calls and outputs with id and status).", headers: requestIdHeader, content: json("InputItemList") },
            ...errorResponses([400, 401, 404, 500], "GatewayError"),
          },
        },
      },
      "/v1/embeddings": {
        post: {
          operationId: "create_embeddings",
          tags: ["OpenAI-compatible"],
          parameters: gatewayHeaders,
          requestBody: { required: true, content: json("EmbeddingsRequest") },
          responses: {
            "200": { description: "One embedding per input (floats, or base64 of little-endian float32 with `encoding_format: base64`).", headers: requestIdHeader, content: json("EmbeddingsResponse") },
            ...errorResponses([400, 401, 403, 404, 408, 413, 424, 429, 500, 502, 503, 504], "GatewayError"),
          },
        },
      },
      "/v1/messages": {
        post: {
          operationId: "create_message",
          tags: ["Anthropic-compatible"],
          security: anthropicSecurity,
          parameters: [...gatewayHeaders, { name: "anthropic-version", in: "header", required: false, schema: { type: "string" } }, { name: "anthropic-beta", in: "header", required: false, schema: { type: "string" } }],
          requestBody: { required: true, content: json("MessagesRequest") },
          responses: {
            "200": { description: "A message, or a stream of Anthropic message events when `stream` is true.", headers: requestIdHeader, content: { "application/json": { schema: { type: "object" } }, ...sse } },
            ...errorResponses([400, 401, 403, 404, 408, 413, 424, 429, 500, 502, 503, 504], "AnthropicError"),
          },
        },
      },
      "/v1/messages/count_tokens": {
        post: {
          operationId: "count_message_tokens",
          tags: ["Anthropic-compatible"],
          security: anthropicSecurity,
          parameters: [{ name: "anthropic-version", in: "header", required: false, schema: { type: "string" } }],
          requestBody: { required: true, content: json("CountTokensRequest") },
          responses: {
            "200": {
              description: "The input token count. `x-gateway-token-count` says whether the provider or the gateway counted; `x-gateway-token-count-accuracy` whether a local count is exact.",
              headers: {
                ...requestIdHeader,
                "x-gateway-token-count": { schema: { type: "string", enum: ["provider", "local"] } },
                "x-gateway-token-count-accuracy": { schema: { type: "string", enum: ["exact", "estimate"] } },
              },
              content: json("CountTokensResponse"),
            },
            ...errorResponses([400, 401, 403, 404, 413, 500, 502, 503, 504], "AnthropicError"),
          },
        },
      },
      "/v1/models": {
        get: {
          operationId: "list_models",
          tags: ["Models"],
          parameters: [{ name: "anthropic-version", in: "header", required: false, description: "When present, the list is in Anthropic's format.", schema: { type: "string" } }],
          responses: {
            "200": {
              description: "Exactly the models and aliases the key may use.",
              headers: requestIdHeader,
              content: { "application/json": { schema: { oneOf: [{ $ref: "#/components/schemas/OpenAIModelList" }, { $ref: "#/components/schemas/AnthropicModelList" }] } } },
            },
            ...errorResponses([401, 500], "GatewayError"),
          },
        },
      },
      "/mcp": {
        post: {
          operationId: "mcp",
          tags: ["MCP"],
          summary: "The MCP endpoint (Streamable HTTP)",
          description:
            "One JSON-RPC message per POST (MCP 2026-07-28, and the 2025 revisions with `initialize`; no sessions). Serves the tools, " +
            "prompts and resources of the organization's registered MCP servers that the caller may use, as `<server>__<name>` and " +
            "`mcp-gateway://<server>/...`. Authenticate with a gateway API key (`gak_...`) or an MCP token (`gmt_...`); without one: " +
            "401 with `WWW-Authenticate` naming the protected-resource metadata.",
          security: [{ bearer: [] }, { mcpToken: [] }],
          requestBody: { required: true, content: { "application/json": { schema: { type: "object", description: "A JSON-RPC 2.0 request or notification." } } } },
          responses: {
            "200": { description: "The JSON-RPC response (JSON or a server-sent event stream).", headers: requestIdHeader, content: { "application/json": { schema: { type: "object" } }, ...sse } },
            "202": { description: "A notification was accepted." },
            "401": { description: "Missing or invalid credential (`WWW-Authenticate: Bearer resource_metadata=...`).", headers: requestIdHeader, content: json("GatewayError") },
            "403": { description: "A browser `Origin` that is not allowed (`GATEWAY_MCP_ALLOWED_ORIGINS`).", content: { "application/json": { schema: { type: "object" } } } },
          },
        },
        get: {
          operationId: "mcp_stream",
          tags: ["MCP"],
          summary: "Not served: the endpoint keeps no sessions and opens no standalone stream (405)",
          security: [{ bearer: [] }, { mcpToken: [] }],
          responses: { "405": { description: "Method not allowed." }, "401": { description: "Missing or invalid credential." } },
        },
        delete: {
          operationId: "mcp_end_session",
          tags: ["MCP"],
          summary: "Not served: there are no sessions to end (405)",
          security: [{ bearer: [] }, { mcpToken: [] }],
          responses: { "405": { description: "Method not allowed." }, "401": { description: "Missing or invalid credential." } },
        },
      },
      "/.well-known/oauth-protected-resource/mcp": {
        get: {
          operationId: "get_mcp_protected_resource_metadata",
          tags: ["MCP"],
          security: [],
          responses: { "200": { description: "RFC 9728 protected-resource metadata of the MCP endpoint.", content: { "application/json": { schema: { type: "object" } } } } },
        },
      },
      "/.well-known/oauth-protected-resource": {
        get: {
          operationId: "get_protected_resource_metadata",
          tags: ["MCP"],
          security: [],
          responses: { "200": { description: "The same document, at the root well-known location.", content: { "application/json": { schema: { type: "object" } } } } },
        },
      },
      "/openapi.json": {
        get: {
          operationId: "get_openapi_document",
          tags: ["Meta"],
          security: [],
          responses: { "200": { description: "This document.", content: { "application/json": { schema: { type: "object" } } } } },
        },
      },
    },
    components: {
      securitySchemes: {
        bearer: { type: "http", scheme: "bearer", description: "A project API key (`gak_...`)." },
        anthropicApiKey: { type: "apiKey", in: "header", name: "x-api-key", description: "A project API key (`gak_...`), as Anthropic clients send it." },
        mcpToken: { type: "http", scheme: "bearer", description: "An MCP token (`gmt_...`) issued in the dashboard: the MCP endpoint only, acting as its API key." },
      },
      schemas: {
        DecisionRequest: withoutDialect(decisionRequestJsonSchema),
        DecisionResponse: withoutDialect(decisionResponseJsonSchema),
        ChatCompletionRequest: jsonSchema(chatCompletionRequest),
        MessagesRequest: jsonSchema(messagesRequest),
        ResponsesRequest: jsonSchema(responsesRequest),
        Response: jsonSchema(responseObject),
        InputItemList: jsonSchema(inputItemList),
        DeletedResponse: jsonSchema(deletedResponse),
        EmbeddingsRequest: jsonSchema(embeddingsRequest),
        EmbeddingsResponse: jsonSchema(embeddingsResponse),
        CountTokensRequest: jsonSchema(countTokensRequest),
        CountTokensResponse: jsonSchema(countTokensResponse),
        OpenAIModelList: jsonSchema(openAiModelList),
        AnthropicModelList: jsonSchema(anthropicModelList),
        GatewayError: jsonSchema(gatewayErrorBody),
        AnthropicError: jsonSchema(anthropicErrorBody),
      },
    },
  };
}
