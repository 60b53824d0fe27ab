import { GatewayError } from "@gateway/errors";
import { type AuthClient, GoogleAuth, JWT } from "google-auth-library";
import { googleTokenUrl, parseServiceAccountKey, type ServiceAccountKey } from "./service-account-key.js";

/** The OAuth scope of Vertex AI calls. */
export const vertexScope = "https://www.googleapis.com/auth/cloud-platform";

/** How long before its expiry a token is replaced (google-auth-library's default as well). */
export const tokenRefreshMarginMs = 5 * 60_000;

/** Bounds one token request (the library retries a 5xx or a network failure within it). */
const tokenRequestTimeoutMs = 15_000;

/** Access tokens of one connection. */
export interface VertexAccessTokens {
  /** A valid access token: the cached one, or (shared by concurrent callers) a new one. */
  token(): Promise<string>;
  /** Strings never shown in an error or log (the key's private key and key id; tokens are added by callers). */
  readonly secrets: readonly string[];
}

/** Options of {@link createVertexAccessTokens}. */
export interface VertexAccessTokenOptions {
  /** A service-account JSON key; null: application default credentials of the gateway's environment. */
  credential: string | null;
  /** The connection's name (error messages). */
  connectionName: string;
  /** The `fetch` of token requests made with a service-account key (the outbound address policy's). */
  fetch: typeof fetch;
}

/**
 * Turns a connection's credential into OAuth access tokens with google-auth-library (scope
 * `cloud-platform`). A service-account key signs an RS256 JWT assertion that is exchanged at the
 * key's `token_uri` (the library itself always posts to Google's endpoint: the request is
 * redirected there by the `fetch` given to it, which also applies the outbound address policy);
 * without a credential, application default credentials are used as the library finds them
 * (`GOOGLE_APPLICATION_CREDENTIALS`, the metadata server) with the library's own HTTP client: the
 * operator's environment, not an address an organization stored (and the metadata server's
 * link-local address is one the outbound policy always refuses).
 *
 * A token is kept until {@link tokenRefreshMarginMs} before its expiry; concurrent callers of an
 * expiring one share a single refresh. A failure is 502 `upstream_error` (retryable: another
 * target may serve the call) that names the connection and the token endpoint's status only:
 * never the key, the assertion or the endpoint's answer.
 */
export function createVertexAccessTokens(options: VertexAccessTokenOptions): VertexAccessTokens {
  // Parsed on first use: a malformed key fails the calls (a clear 502), not the connection's setup.
  let key: ServiceAccountKey | null | undefined;
  const keyOf = () => (key ??= options.credential === null ? null : parseServiceAccountKey(options.credential, options.connectionName));
  let client: AuthClient | undefined;
  let cached: { token: string; expiresAt: number } | undefined;
  let pending: Promise<string> | undefined;

  async function refresh(): Promise<string> {
    if (client === undefined) {
      const serviceAccount = keyOf();
      try {
        client = serviceAccount === null ? await applicationDefaultClient() : serviceAccountClient(serviceAccount, options.fetch);
      } catch (error) {
        throw tokenError(options.connectionName, error);
      }
    }
    let answer: { token?: string | null };
    try {
      answer = await client.getAccessToken();
    } catch (error) {
      throw tokenError(options.connectionName, error);
    }
    if (typeof answer.token !== "string" || answer.token === "") throw tokenError(options.connectionName, undefined);
    const expiresAt = client.credentials.expiry_date ?? 0;
    cached = { token: answer.token, expiresAt };
    return answer.token;
  }

  return {
    get secrets() {
      try {
        const serviceAccount = keyOf();
        return serviceAccount === null ? [] : [serviceAccount.privateKey, serviceAccount.privateKeyId].filter((secret) => secret !== "");
      } catch {
        return [];
      }
    },
    token() {
      if (cached !== undefined && Date.now() < cached.expiresAt - tokenRefreshMarginMs) return Promise.resolve(cached.token);
      pending ??= refresh().finally(() => {
        pending = undefined;
      });
      return pending;
    },
  };
}

function serviceAccountClient(key: ServiceAccountKey, outboundFetch: typeof fetch): JWT {
  const tokenFetch = ((input: string | URL | Request, init?: RequestInit) => {
    const url = typeof input === "string" ? input : input instanceof URL ? input.href : input.url;
    return outboundFetch(url === googleTokenUrl ? key.tokenUri : input, init);
  }) as typeof fetch;
  return new JWT({
    email: key.clientEmail,
    key: key.privateKey,
    ...(key.privateKeyId === "" ? {} : { keyId: key.privateKeyId }),
    scopes: [vertexScope],
    eagerRefreshThresholdMillis: tokenRefreshMarginMs,
    transporterOptions: { fetchImplementation: tokenFetch, timeout: tokenRequestTimeoutMs },
  });
}

async function applicationDefaultClient(): Promise<AuthClient> {
  const auth = new GoogleAuth({ scopes: [vertexScope], clientOptions: { eagerRefreshThresholdMillis: tokenRefreshMarginMs } });
  return (await auth.getClient()) as AuthClient;
}

function tokenError(connection: string, error: unknown): GatewayError {
  const status = statusOf(error);
  return new GatewayError("upstream_error", {
    message: `The connection '${connection}' could not get a Google access token${status === undefined ? "" : ` (the token endpoint answered ${status})`}.`,
    retryable: true,
    details: { provider: connection, ...(status === undefined ? {} : { upstreamStatus: status }) },
  });
}

function statusOf(error: unknown): number | undefined {
  const response = (error as { response?: { status?: unknown } } | undefined)?.response;
  return typeof response?.status === "number" ? response.status : undefined;
}

const byConnection = new WeakMap<object, VertexAccessTokens>();

/** The access tokens of a connection object (one cache shared by its chat, token-counting and decision models). */
export function vertexAccessTokensOf(connection: { name: string; credential: string | null }, outboundFetch: typeof fetch): VertexAccessTokens {
  let tokens = byConnection.get(connection);
  if (tokens === undefined) {
    tokens = createVertexAccessTokens({ credential: connection.credential, connectionName: connection.name, fetch: outboundFetch });
    byConnection.set(connection, tokens);
  }
  return tokens;
}
