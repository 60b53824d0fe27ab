import type { Connection } from "../api/api-types.js";
import { parseHeaderLines } from "../format/parse-header-lines.js";

/** The connection form's fields (text as typed; lists and maps one entry per line). */
export interface ConnectionFormValues {
  name: string;
  kind: Connection["kind"];
  base_url: string;
  /** A new credential; empty keeps the stored one. */
  credential: string;
  removeCredential: boolean;
  /** `Header-Name: value` per line. */
  headers: string;
  /** `vendor/model` per line. */
  models: string;
  /** `vendor/model = upstream-name` per line. */
  upstream_model_names: string;
  /** `vendor/model input output [cache_read cache_write]` per line, USD per million tokens. */
  prices: string;
  enabled: boolean;
  /** "" (measure it), "true" or "false": whether the upstream accepts logprobs (OpenAI-compatible). */
  logprobs: "" | "true" | "false";
  /** Anthropic: max_tokens of translated requests without an output cap; empty for the default. */
  default_max_tokens: string;
  /** Upstream timeouts in ms; empty takes the gateway's global setting. */
  timeouts: Record<TimeoutName, string>;
  /** OpenAI-compatible: "" (only OpenAI's own API), "true" or "false": whether the upstream serves the Responses API. */
  responses_api: "" | "true" | "false";
  /** `vendor/model = chat, responses, embeddings` per line; a model left out is served by its name's default. */
  model_endpoints: string;
  /** The kind's own settings as a JSON object (Azure deployments, Bedrock region, ...); empty for none. */
  settings: string;
}

/** The endpoints a model may serve. */
export const modelEndpointNames = ["chat", "responses", "embeddings"] as const;

/** The per-connection upstream timeouts. */
export const timeoutNames = ["connect_ms", "total_ms", "first_byte_ms", "idle_ms", "max_duration_ms"] as const;
/** One of {@link timeoutNames}. */
export type TimeoutName = (typeof timeoutNames)[number];

type Price = Connection["prices"][string];

const lines = (text: string) =>
  text
    .split("\n")
    .map((line) => line.trim())
    .filter((line) => line !== "" && !line.startsWith("#"));

/** The form values of an existing connection (or the defaults of a new one). */
export function connectionToFormValues(connection: Connection | null): ConnectionFormValues {
  return {
    name: connection?.name ?? "",
    kind: connection?.kind ?? "openai",
    base_url: connection?.base_url ?? "",
    credential: "",
    removeCredential: false,
    headers: Object.entries(connection?.headers ?? {})
      .map(([name, value]) => `${name}: ${value}`)
      .join("\n"),
    models: (connection?.models ?? []).join("\n"),
    upstream_model_names: Object.entries(connection?.upstream_model_names ?? {})
      .map(([model, upstream]) => `${model} = ${upstream}`)
      .join("\n"),
    prices: Object.entries(connection?.prices ?? {})
      .map(([model, price]) => [model, price.input, price.output, ...(price.cache_read !== undefined || price.cache_write !== undefined ? [price.cache_read ?? price.input, price.cache_write ?? price.input] : [])].join(" "))
      .join("\n"),
    enabled: connection?.enabled ?? true,
    logprobs: connection?.logprobs === true ? "true" : connection?.logprobs === false ? "false" : "",
    default_max_tokens: connection?.default_max_tokens != null ? String(connection.default_max_tokens) : "",
    timeouts: Object.fromEntries(timeoutNames.map((name) => [name, connection?.timeouts?.[name] !== undefined ? String(connection.timeouts[name]) : ""])) as Record<TimeoutName, string>,
    responses_api: connection?.responses_api === true ? "true" : connection?.responses_api === false ? "false" : "",
    model_endpoints: Object.entries(connection?.model_endpoints ?? {})
      .map(([model, endpoints]) => `${model} = ${endpoints.join(", ")}`)
      .join("\n"),
    settings: connection?.settings && Object.keys(connection.settings).length > 0 ? JSON.stringify(connection.settings, null, 2) : "",
  };
}

/**
 * Turns the form into the request body: lines into lists and maps; a line that cannot be read
 * becomes an error of its field (the API's own rules check the rest). On edit, an empty credential
 * is left out (the stored one stays) unless "remove" is ticked (null).
 */
export function connectionFormToBody(values: ConnectionFormValues, editing: boolean): { body: Record<string, unknown>; errors: Record<string, string> } {
  const errors: Record<string, string> = {};
  const { headers, error: headerError } = parseHeaderLines(values.headers);
  if (headerError) errors.headers = headerError;
  const upstreamNames: Record<string, string> = {};
  for (const line of lines(values.upstream_model_names)) {
    const [model, upstream, ...rest] = line.split("=").map((part) => part.trim());
    if (!model || !upstream || rest.length > 0) errors.upstream_model_names ??= `“${line}” is not “vendor/model = upstream-name”.`;
    else upstreamNames[model] = upstream;
  }
  const prices: Record<string, Price> = {};
  for (const line of lines(values.prices)) {
    const [model, ...numbers] = line.split(/\s+/);
    const parsed = numbers.map(Number);
    if (!model || (parsed.length !== 2 && parsed.length !== 4) || parsed.some((number) => !Number.isFinite(number) || number < 0)) {
      errors.prices ??= `“${line}” is not “vendor/model input output” (optionally “cache_read cache_write”), USD per million tokens.`;
      continue;
    }
    prices[model] = { input: parsed[0]!, output: parsed[1]!, ...(parsed.length === 4 ? { cache_read: parsed[2]!, cache_write: parsed[3]! } : {}) };
  }
  const modelEndpoints: Record<string, string[]> = {};
  for (const line of lines(values.model_endpoints)) {
    const [model, list, ...rest] = line.split("=").map((part) => part.trim());
    const endpoints = (list ?? "").split(",").map((part) => part.trim()).filter((part) => part !== "");
    const known = endpoints.every((endpoint) => (modelEndpointNames as readonly string[]).includes(endpoint));
    if (!model || endpoints.length === 0 || rest.length > 0 || !known) {
      errors.model_endpoints ??= `“${line}” is not “vendor/model = ${modelEndpointNames.join(", ")}” (one or more).`;
    } else modelEndpoints[model] = [...new Set(endpoints)];
  }
  let settings: Record<string, unknown> = {};
  if (values.settings.trim() !== "") {
    try {
      const parsed: unknown = JSON.parse(values.settings);
      if (parsed === null || typeof parsed !== "object" || Array.isArray(parsed)) errors.settings = "Settings must be a JSON object, e.g. { \"apiVersion\": \"2024-10-21\" }.";
      else settings = parsed as Record<string, unknown>;
    } catch {
      errors.settings = "Settings are not valid JSON.";
    }
  }
  const body: Record<string, unknown> = {
    name: values.name.trim(),
    ...(editing ? {} : { kind: values.kind }),
    base_url: values.base_url.trim() === "" ? null : values.base_url.trim(),
    headers,
    models: lines(values.models),
    upstream_model_names: upstreamNames,
    prices,
    enabled: values.enabled,
    logprobs: values.logprobs === "" ? null : values.logprobs === "true",
    default_max_tokens: values.default_max_tokens.trim() === "" ? null : Number(values.default_max_tokens),
    timeouts: Object.fromEntries(timeoutNames.filter((name) => values.timeouts[name].trim() !== "").map((name) => [name, Number(values.timeouts[name])])),
    responses_api: values.responses_api === "" ? null : values.responses_api === "true",
    model_endpoints: modelEndpoints,
    settings,
  };
  if (values.removeCredential) body.credential = null;
  else if (values.credential !== "") body.credential = values.credential;
  else if (!editing) body.credential = null;
  return { body, errors };
}
