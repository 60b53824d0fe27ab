import { createHash } from "node:crypto";
import { GatewayError, redactSecrets } from "@gateway/errors";
import type { EntraSettings } from "./azure-openai-settings.js";

/** The scope of Azure OpenAI (Cognitive Services) access tokens. */
export const azureCognitiveServicesScope = "https://cognitiveservices.azure.com/.default";

/** Options of {@link entraTokenSource}. */
export interface EntraTokenSourceOptions {
  entra: EntraSettings;
  clientSecret: string;
  /** Through the outbound address policy. */
  fetch: typeof fetch;
  /** The connection's name (messages). */
  provider: string;
  /** Epoch milliseconds (tests); default `Date.now`. */
  now?: () => number;
}

/** Hands out a valid access token, fetching a new one ahead of the cached one's expiry. */
export interface EntraTokenSource {
  /** `signal` is read only when a token is requested (a cached token needs none). */
  token(signal?: () => AbortSignal): Promise<string>;
}

interface CachedToken {
  accessToken: string;
  expiresAt: number;
  refreshAt: number;
}

const refreshMarginMs = 5 * 60_000;
const maxSources = 1000;
// Shared by the connection objects of every snapshot: a reloaded snapshot keeps its tokens.
const sources = new Map<string, EntraTokenSource>();

/**
 * The token source of a client-credentials grant (`POST {authorityHost}/{tenantId}/oauth2/v2.0/token`,
 * form-encoded `client_id`, `client_secret`, `grant_type=client_credentials` and the Cognitive
 * Services scope): one per authority, tenant, client and secret. A token is refreshed 5 minutes
 * before it expires (half-way for tokens that live under 10 minutes); concurrent callers share
 * one request; a failed refresh keeps using the cached token until it expires.
 */
export function entraTokenSource(options: EntraTokenSourceOptions): EntraTokenSource {
  const secretHash = createHash("sha256").update(options.clientSecret).digest("hex");
  const key = [options.entra.authorityHost, options.entra.tenantId, options.entra.clientId, secretHash].join("\n");
  let source = sources.get(key);
  if (source === undefined) {
    if (sources.size >= maxSources) sources.delete(sources.keys().next().value!);
    source = createEntraTokenSource(options);
    sources.set(key, source);
  }
  return source;
}

/** A token source of its own (no sharing): see {@link entraTokenSource}. */
export function createEntraTokenSource(options: EntraTokenSourceOptions): EntraTokenSource {
  const now = options.now ?? Date.now;
  let cached: CachedToken | undefined;
  let pending: Promise<CachedToken> | undefined;

  function refresh(signal?: () => AbortSignal): Promise<CachedToken> {
    pending ??= requestToken(options, now, signal?.()).finally(() => {
      pending = undefined;
    });
    return pending;
  }

  return {
    async token(signal) {
      const time = now();
      if (cached !== undefined && time < cached.refreshAt) return cached.accessToken;
      try {
        cached = await refresh(signal);
      } catch (error) {
        if (cached !== undefined && time < cached.expiresAt) return cached.accessToken;
        throw error;
      }
      return cached.accessToken;
    },
  };
}

async function requestToken(options: EntraTokenSourceOptions, now: () => number, signal?: AbortSignal): Promise<CachedToken> {
  const { entra, clientSecret, provider } = options;
  const url = `${entra.authorityHost.replace(/\/+$/, "")}/${encodeURIComponent(entra.tenantId)}/oauth2/v2.0/token`;
  const form = new URLSearchParams({ client_id: entra.clientId, client_secret: clientSecret, grant_type: "client_credentials", scope: azureCognitiveServicesScope });
  let response: Response;
  try {
    response = await options.fetch(url, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded", accept: "application/json" },
      body: form.toString(),
      redirect: "manual",
      ...(signal === undefined ? {} : { signal }),
    });
  } catch (error) {
    throw new GatewayError("upstream_error", {
      message: `Microsoft Entra ID could not be reached for the connection '${provider}'.`,
      retryable: true,
      cause: error,
      details: { provider },
    });
  }
  const text = await response.text();
  const body = parseObject(text);
  const started = now();
  if (!response.ok) {
    // `error` is an OAuth code (`invalid_client`, `unauthorized_client`); the description may echo input: redacted.
    const code = typeof body?.error === "string" ? body.error : null;
    const description = typeof body?.error_description === "string" ? redactSecrets(body.error_description.split(/\r?\n/)[0]!.slice(0, 300), [clientSecret]) : null;
    throw new GatewayError("upstream_error", {
      message: `Microsoft Entra ID refused the client credentials of the connection '${provider}' (status ${response.status}${code === null ? "" : `, ${code}`})${description === null ? "" : `: ${description}`}`,
      retryable: response.status >= 500 || response.status === 429,
      details: { provider, upstreamStatus: response.status },
    });
  }
  const accessToken = body?.access_token;
  const expiresIn = Number(body?.expires_in);
  if (typeof accessToken !== "string" || accessToken === "" || !Number.isFinite(expiresIn) || expiresIn <= 0) {
    throw new GatewayError("upstream_error", {
      message: `The token answer of Microsoft Entra ID for the connection '${provider}' has no access token.`,
      retryable: true,
      details: { provider },
    });
  }
  const lifetimeMs = expiresIn * 1000;
  const margin = lifetimeMs < 2 * refreshMarginMs ? lifetimeMs / 2 : refreshMarginMs;
  return { accessToken, expiresAt: started + lifetimeMs, refreshAt: started + lifetimeMs - margin };
}

function parseObject(text: string): Record<string, unknown> | undefined {
  try {
    const value: unknown = JSON.parse(text);
    return typeof value === "object" && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}
