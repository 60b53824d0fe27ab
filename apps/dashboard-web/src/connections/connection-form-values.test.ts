import { describe, expect, it } from "vitest";
import type { Connection } from "../api/api-types.js";
import { connectionFormToBody, connectionToFormValues } from "./connection-form-values.js";

const connection: Connection = {
  id: "conn_1",
  name: "openai-prod",
  kind: "openai",
  base_url: "https://api.openai.com/v1",
  has_credential: true,
  headers: { "OpenAI-Organization": "org-1" },
  models: ["openai/gpt-4o-mini", "openai/gpt-4o"],
  upstream_model_names: { "openai/gpt-4o": "gpt-4o-2024-08-06" },
  prices: { "openai/gpt-4o-mini": { input: 0.15, output: 0.6 }, "openai/gpt-4o": { input: 2.5, output: 10, cache_read: 1.25, cache_write: 2.5 } },
  enabled: true,
  logprobs: false,
  default_max_tokens: null,
  timeouts: { connect_ms: 2000, idle_ms: 30000 },
  responses_api: false,
  model_endpoints: { "openai/text-embedding-3-small": ["embeddings"] },
  settings: { deployments: { "openai/gpt-4o": "gpt4o-prod" } },
  created_at: "2026-01-01T00:00:00.000Z",
  updated_at: "2026-01-01T00:00:00.000Z",
  object: "connection",
};

describe("connection form values", () => {
  it("round-trips a connection through the form, keeping the stored credential", () => {
    const values = connectionToFormValues(connection);
    expect(values.credential).toBe("");
    const { body, errors } = connectionFormToBody(values, true);
    expect(errors).toEqual({});
    expect(body).toEqual({
      name: "openai-prod",
      base_url: "https://api.openai.com/v1",
      headers: { "OpenAI-Organization": "org-1" },
      models: ["openai/gpt-4o-mini", "openai/gpt-4o"],
      upstream_model_names: { "openai/gpt-4o": "gpt-4o-2024-08-06" },
      prices: connection.prices,
      enabled: true,
      logprobs: false,
      default_max_tokens: null,
      timeouts: { connect_ms: 2000, idle_ms: 30000 },
      responses_api: false,
      model_endpoints: { "openai/text-embedding-3-small": ["embeddings"] },
      settings: { deployments: { "openai/gpt-4o": "gpt4o-prod" } },
    });
  });

  it("sends the settings JSON as an object ({} when empty), and names settings that are not a JSON object", () => {
    const values = connectionToFormValues(null);
    expect(connectionFormToBody(values, false).body.settings).toEqual({});
    expect(connectionFormToBody({ ...values, settings: '{ "apiVersion": "2024-10-21" }' }, false).body.settings).toEqual({ apiVersion: "2024-10-21" });
    expect(connectionFormToBody({ ...values, settings: "{ apiVersion: 1" }, false).errors.settings).toBe("Settings are not valid JSON.");
    expect(connectionFormToBody({ ...values, settings: "[1]" }, false).errors.settings).toMatch(/must be a JSON object/);
  });

  it("sends a new credential, or null to remove it; a new connection gets its kind", () => {
    const values = { ...connectionToFormValues(null), name: "anthropic", kind: "anthropic" as const, credential: "sk-ant-secret" };
    expect(connectionFormToBody(values, false).body).toMatchObject({ kind: "anthropic", credential: "sk-ant-secret", base_url: null, models: [], logprobs: null, default_max_tokens: null, timeouts: {} });
    const tuned = { ...values, default_max_tokens: "8192", logprobs: "true" as const, timeouts: { ...values.timeouts, total_ms: "120000" } };
    expect(connectionFormToBody(tuned, false).body).toMatchObject({ default_max_tokens: 8192, logprobs: true, timeouts: { total_ms: 120_000 } });
    expect(connectionFormToBody({ ...connectionToFormValues(connection), removeCredential: true, credential: "ignored" }, true).body.credential).toBeNull();
  });

  it("reports lines it cannot read on their field", () => {
    const values = {
      ...connectionToFormValues(null),
      headers: "no colon here",
      prices: "openai/gpt-4o one two\n",
      upstream_model_names: "a = b = c",
      model_endpoints: "openai/gpt-4o = chat, images",
    };
    expect(connectionFormToBody(values, false).errors).toEqual({
      model_endpoints: "“openai/gpt-4o = chat, images” is not “vendor/model = chat, responses, embeddings” (one or more).",
      headers: "“no colon here” is not “Header-Name: value”.",
      prices: "“openai/gpt-4o one two” is not “vendor/model input output” (optionally “cache_read cache_write”), USD per million tokens.",
      upstream_model_names: "“a = b = c” is not “vendor/model = upstream-name”.",
    });
  });
});
