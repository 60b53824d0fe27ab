import type { AdapterConnection, ProviderCallContext } from "../../provider-adapter.js";
import { baseUrlOf, lowerCaseKeys } from "../../upstream-call.js";

/** A method of a Gemini model (`models/{model}:{method}`). */
export type GeminiMethod = "generateContent" | "streamGenerateContent" | "countTokens" | "embedContent" | "batchEmbedContents";

/**
 * Where and how the Gemini bodies are sent: the Gemini API (an API key) or Vertex AI (the same
 * bodies at project and location URLs, with an OAuth token). The chat, embedding, token-counting
 * and decision models of this folder are built over one, so a Vertex provider reuses them.
 */
export interface GeminiEndpoint {
  /** The URL of a model's method (`generateContent`, `streamGenerateContent` (with `alt=sse`), `countTokens`, `embedContent`, `batchEmbedContents`). */
  url(model: string, method: GeminiMethod): string;
  /** The auth headers of one call (an API key header, or a bearer token fetched and cached). */
  headers(context: ProviderCallContext): Promise<Record<string, string>>;
}

/** Default base URL of `gemini` connections without one. */
export const geminiDefaultBaseUrl = "https://generativelanguage.googleapis.com";

/** The API version a base URL without one is given. */
export const geminiDefaultApiVersion = "v1beta";

/** `x-goog-api-key` when the connection has a credential (never the `key=` query parameter: URLs end up in logs). */
export function geminiCredentialHeaders(credential: string | null): Record<string, string> {
  return credential ? { "x-goog-api-key": credential } : {};
}

/**
 * The API root of a Gemini API connection: its base URL as it is when its path already ends in
 * an API version (`/v1beta`, `/v1`, `/v1alpha`), else with `/{apiVersion}` added.
 */
export function geminiApiRoot(connection: AdapterConnection, apiVersion: string): string {
  const base = baseUrlOf(connection, geminiDefaultBaseUrl).replace(/\/+$/, "");
  let path = "";
  try {
    path = new URL(base).pathname;
  } catch {
    path = "";
  }
  return /\/v1(?:beta|alpha)?\d*$/i.test(path) ? base : `${base}/${apiVersion}`;
}

/**
 * The model id as Gemini names it in a URL: without a `models/` prefix, the id's characters
 * escaped (a model id never adds path segments or a query).
 */
export function geminiModelId(model: string): string {
  const bare = model.startsWith("models/") ? model.slice("models/".length) : model;
  return encodeURIComponent(bare);
}

/** The endpoint of the Gemini API: `{root}/models/{model}:{method}`, the API key in `x-goog-api-key`, the connection's extra headers. */
export function createGeminiApiEndpoint(connection: AdapterConnection, apiVersion: string = geminiDefaultApiVersion): GeminiEndpoint {
  const root = (): string => geminiApiRoot(connection, apiVersion);
  const headers = { ...geminiCredentialHeaders(connection.credential), ...lowerCaseKeys(connection.headers) };
  return {
    url(model, method) {
      const url = `${root()}/models/${geminiModelId(model)}:${method}`;
      return method === "streamGenerateContent" ? `${url}?alt=sse` : url;
    },
    async headers(_context) {
      return headers;
    },
  };
}
