import { GatewayError } from "@gateway/errors";
import { resolveApiUrl } from "./connection-api-url.js";
import type { HttpJsonResponse, HttpStreamResponse, HttpTransport } from "./http-transport.js";
import { mapUpstreamError } from "./map-upstream-error.js";
import type { ProviderCallContext, AdapterConnection } from "./provider-adapter.js";

/** The connection's base URL, or the kind's default; a missing one fails with 502 (not retryable). */
export function baseUrlOf(connection: AdapterConnection, fallback?: string): string {
  const baseUrl = connection.baseUrl ?? fallback;
  if (baseUrl === undefined || baseUrl === "") {
    throw new GatewayError("upstream_error", {
      message: `The connection '${connection.name}' has no base URL.`,
      retryable: false, details: { provider: connection.name },
    });
  }
  return baseUrl;
}

/**
 * The URL of an API path (after `/v1`) of the connection: see {@link resolveApiUrl}, with the
 * base-URL rule of its provider as the registry stamped it on the connection
 * (`baseUrlPathIsApiRoot`); a missing base URL fails like {@link baseUrlOf}.
 */
export function apiUrlOf(connection: AdapterConnection, path: string, fallback?: string): string {
  return resolveApiUrl(baseUrlOf(connection, fallback), path, connection.baseUrlPathIsApiRoot === true);
}

/** Options of {@link postJson} and {@link postStream}. */
export interface UpstreamCallOptions {
  transport: HttpTransport;
  connection: AdapterConnection;
  url: string;
  headers: Record<string, string>;
  body: unknown;
  context: ProviderCallContext;
  /** Strings never shown in a mapped error (default: the connection's credential). */
  secrets?: readonly (string | null | undefined)[];
}

/**
 * POSTs JSON and returns the 2xx answer; a non-2xx answer throws the mapped GatewayError,
 * a 2xx answer that is not a JSON object throws 502 `upstream_error`.
 */
export async function postJson(options: UpstreamCallOptions): Promise<HttpJsonResponse & { body: Record<string, unknown> }> {
  const response = await options.transport.requestJson({
    url: options.url,
    method: "POST",
    headers: options.headers,
    body: options.body,
    context: options.context,
    provider: options.connection.name,
    ...(options.connection.timeouts === undefined ? {} : { timeouts: options.connection.timeouts }),
  });
  if (response.status < 200 || response.status >= 300) {
    throw mapUpstreamError({
      status: response.status,
      headers: response.headers,
      body: response.body,
      provider: options.connection.name,
      secrets: options.secrets ?? [options.connection.credential],
    });
  }
  if (typeof response.body !== "object" || response.body === null || Array.isArray(response.body)) {
    throw malformedAnswer(options.connection.name, "is not a JSON object");
  }
  return response as HttpJsonResponse & { body: Record<string, unknown> };
}

/** POSTs JSON expecting a stream; a non-2xx answer is read and thrown as the mapped GatewayError. */
export async function postStream(options: UpstreamCallOptions): Promise<HttpStreamResponse> {
  const response = await options.transport.requestStream({
    url: options.url,
    method: "POST",
    headers: options.headers,
    body: options.body,
    context: options.context,
    provider: options.connection.name,
    ...(options.connection.timeouts === undefined ? {} : { timeouts: options.connection.timeouts }),
  });
  if (response.status < 200 || response.status >= 300) {
    const { body } = await response.readJson();
    throw mapUpstreamError({
      status: response.status,
      headers: response.headers,
      body,
      provider: options.connection.name,
      secrets: options.secrets ?? [options.connection.credential],
    });
  }
  return response;
}

/** 502 for a provider answer that does not have the expected shape. */
export function malformedAnswer(provider: string, what: string): GatewayError {
  return new GatewayError("upstream_error", {
    message: `The answer of the provider '${provider}' ${what}.`,
    retryable: true, details: { provider },
  });
}

/** Parses JSON, or `undefined`. */
export function tryParseJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

/** Header names in lower case (so a connection's `Authorization` replaces, not duplicates, ours). */
export function lowerCaseKeys(headers: Record<string, string>): Record<string, string> {
  return Object.fromEntries(Object.entries(headers).map(([key, value]) => [key.toLowerCase(), value]));
}

/**
 * Runs a translation step (request or response conversion) and gives a GatewayError it throws
 * the `details.provider` and the `retryable` hint that routing reads: a request the translation
 * cannot represent (`unsupported_feature`) may still be served natively by another target, so
 * it is retryable; a malformed request (`invalid_request`) is not. Other errors pass unchanged.
 */
export function translateOrThrow<Result>(provider: string, translate: () => Result): Result {
  try {
    return translate();
  } catch (error) {
    throw withRoutingDetails(error, provider);
  }
}

/** {@link translateOrThrow} for an asynchronous step. */
export async function translateOrThrowAsync<Result>(provider: string, translate: () => Promise<Result>): Promise<Result> {
  try {
    return await translate();
  } catch (error) {
    throw withRoutingDetails(error, provider);
  }
}

function withRoutingDetails(error: unknown, provider: string): unknown {
  if (!GatewayError.isInstance(error)) return error;
  const details = error.details ?? {};
  if (details.provider !== undefined && error.retryable !== undefined) return error;
  return new GatewayError(error.code, {
    message: error.message,
    param: error.param,
    type: error.type,
    retryAfter: error.retryAfter,
    cause: error,
    retryable: error.retryable ?? error.code === "unsupported_feature",
    details: { ...details, provider },
  });
}

/** The `<vendor>/<model>` part of a target's qualified model (what the connection serves). */
export function servedModelOf(target: { connection: { name: string }; qualifiedModel: string }): string {
  const prefix = `${target.connection.name}/`;
  return target.qualifiedModel.startsWith(prefix) ? target.qualifiedModel.slice(prefix.length) : target.qualifiedModel;
}
