// The deployment the fuzz runs against (a configuration file for the gateway: one organization
// with an owner, two projects and keys, one of them under a hard budget, and a connection of
// every kind pointing at the mock provider), and the gateway's routes with valid requests to
// mutate. Shared by the gateway's fuzz test file and `pnpm fuzz`.
import { randomBytes } from "node:crypto";
import { writeFileSync } from "node:fs";
import path from "node:path";

const gatewayKey = () => `gak_${randomBytes(48).toString("hex").slice(0, 48)}`;

/**
 * Writes `gateway.json` into `directory` and answers its path and every secret in it (the
 * secrets no answer may ever contain).
 */
export function writeFuzzConfig({ directory, mockUrl }) {
  const secrets = {
    apiKey: gatewayKey(),
    cappedApiKey: gatewayKey(),
    ownerEmail: "owner@fuzz.example.com",
    ownerPassword: `owner-password-${randomBytes(8).toString("hex")}`,
    openAiCredential: `sk-fuzz-openai-${randomBytes(12).toString("hex")}`,
    anthropicCredential: `sk-ant-fuzz-${randomBytes(12).toString("hex")}`,
    nativeCredential: `so-fuzz-native-${randomBytes(12).toString("hex")}`,
  };
  const config = {
    version: 1,
    organizations: [
      {
        slug: "fuzz",
        name: "Fuzz",
        users: [{ email: secrets.ownerEmail, name: "Owner", role: "owner", password: secrets.ownerPassword }],
        projects: [
          { name: "main", captureContent: true, apiKeys: [{ name: "main", secret: secrets.apiKey }] },
          { name: "capped", apiKeys: [{ name: "capped", secret: secrets.cappedApiKey }] },
        ],
        connections: [
          {
            name: "openai-mock",
            kind: "openai",
            baseUrl: `${mockUrl}/v1`,
            credential: secrets.openAiCredential,
            models: ["openai/gpt-4o-mini", "openai/text-embedding-3-small"],
            upstreamModelNames: { "openai/gpt-4o-mini": "gpt-4o-mini", "openai/text-embedding-3-small": "text-embedding-3-small" },
            prices: { "openai/gpt-4o-mini": { input: 0.15, output: 0.6 } },
            responsesApi: true,
            modelEndpoints: { "openai/gpt-4o-mini": ["chat", "responses"], "openai/text-embedding-3-small": ["embeddings"] },
          },
          {
            name: "anthropic-mock",
            kind: "anthropic",
            baseUrl: mockUrl,
            credential: secrets.anthropicCredential,
            models: ["anthropic/claude-sonnet-4"],
            upstreamModelNames: { "anthropic/claude-sonnet-4": "claude-sonnet-4-20250514" },
            prices: { "anthropic/claude-sonnet-4": { input: 3, output: 15 } },
          },
          { name: "native", kind: "systemone", baseUrl: mockUrl, credential: secrets.nativeCredential, models: ["systemone/s1"] },
          { name: "demo", kind: "demo", models: ["demo/chat", "demo/decide", "demo/embed"] },
        ],
        routes: [{ alias: "fast", targets: [{ model: "openai-mock/openai/gpt-4o-mini" }, { model: "anthropic-mock/anthropic/claude-sonnet-4" }] }],
        budgets: [{ name: "capped", scope: "project", project: "capped", amountUsd: 1000, period: "month", mode: "hard" }],
      },
    ],
  };
  const configPath = path.join(directory, "gateway.json");
  writeFileSync(configPath, JSON.stringify(config, null, 2));
  return { configPath, secrets };
}

/** Every secret of {@link writeFuzzConfig} that must never reach an answer (the e-mail is no secret). */
export function secretValues(secrets) {
  return [secrets.apiKey, secrets.cappedApiKey, secrets.ownerPassword, secrets.openAiCredential, secrets.anthropicCredential, secrets.nativeCredential];
}

const chatModels = ["openai-mock/openai/gpt-4o-mini", "anthropic-mock/anthropic/claude-sonnet-4", "demo/demo/chat", "fast"];
const messages = [
  { role: "system", content: "Be brief." },
  { role: "user", content: [{ type: "text", text: "What is the weather in Paris?" }] },
];
const tools = [
  {
    type: "function",
    function: { name: "get_weather", description: "Weather of a city", parameters: { type: "object", properties: { city: { type: "string" } }, required: ["city"] } },
  },
];
const anthropicTools = [{ name: "get_weather", description: "Weather of a city", input_schema: { type: "object", properties: { city: { type: "string" } }, required: ["city"] } }];

/** A valid decision request with one question of each kind. */
function decision(model) {
  return {
    model,
    state: { ticket: "The customer asked for a refund twice.", history: ["first", "second"] },
    questions: {
      escalate: { type: "noul", instructions: "Should this be escalated?", criteria: { true: "angry", false: "calm" } },
      topic: { type: "choice", instructions: "Which topic?", criteria: { billing: "money", shipping: "parcels" } },
      urgency: { type: "score", instructions: "How urgent?", criteria: ["low", "medium", "high"] },
    },
  };
}

/**
 * The gateway's routes with valid bodies to mutate: `{ method, path, bodies }` (`path` may hold
 * `{id}`, filled by the caller with a stored response id or a hostile segment).
 */
export function gatewayCases() {
  return [
    {
      method: "POST",
      path: "/v1/chat/completions",
      bodies: chatModels.flatMap((model) => [
        { model, messages, max_tokens: 64, temperature: 0.5, user: "u1", metadata: { a: "b" } },
        { model, messages, tools, tool_choice: "auto", stream: true, stream_options: { include_usage: true }, max_completion_tokens: 32 },
      ]),
    },
    {
      method: "POST",
      path: "/v1/messages",
      bodies: chatModels.flatMap((model) => [
        { model, max_tokens: 64, system: "Be brief.", messages: [{ role: "user", content: "Hello" }], temperature: 0.2 },
        { model, max_tokens: 64, tools: anthropicTools, stream: true, messages: [{ role: "user", content: [{ type: "text", text: "Weather?" }] }] },
      ]),
    },
    {
      method: "POST",
      path: "/v1/messages/count_tokens",
      bodies: chatModels.map((model) => ({ model, system: "Be brief.", messages: [{ role: "user", content: "Hello" }], tools: anthropicTools })),
    },
    {
      method: "POST",
      path: "/v1/responses",
      bodies: ["openai-mock/openai/gpt-4o-mini", "demo/demo/chat"].flatMap((model) => [
        { model, input: "Say hello.", store: true, max_output_tokens: 64, metadata: { k: "v" } },
        { model, input: [{ role: "user", content: [{ type: "input_text", text: "Hi" }] }], instructions: "Be brief.", stream: true, store: false },
      ]),
    },
    { method: "GET", path: "/v1/responses/{id}", bodies: [] },
    { method: "DELETE", path: "/v1/responses/{id}", bodies: [] },
    { method: "GET", path: "/v1/responses/{id}/input_items", bodies: [] },
    {
      method: "POST",
      path: "/v1/embeddings",
      bodies: [
        { model: "openai-mock/openai/text-embedding-3-small", input: ["one", "two"], encoding_format: "float" },
        { model: "demo/demo/embed", input: "one", dimensions: 8 },
      ],
    },
    { method: "POST", path: "/v1/systemone", bodies: [decision("native/systemone/s1"), decision("demo/demo/decide")] },
    { method: "GET", path: "/v1/models", bodies: [] },
    {
      method: "POST",
      path: "/mcp",
      bodies: [
        { jsonrpc: "2.0", id: 1, method: "initialize", params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "fuzz", version: "1.0.0" } } },
        { jsonrpc: "2.0", id: 2, method: "tools/list", params: {} },
        { jsonrpc: "2.0", id: 3, method: "tools/call", params: { name: "tickets__search", arguments: { query: "x" } } },
      ],
    },
    { method: "GET", path: "/mcp", bodies: [] },
    { method: "DELETE", path: "/mcp", bodies: [] },
    { method: "GET", path: "/healthz", bodies: [] },
    { method: "GET", path: "/readyz", bodies: [] },
    { method: "GET", path: "/openapi.json", bodies: [] },
    { method: "GET", path: "/.well-known/oauth-protected-resource/mcp", bodies: [] },
  ];
}
