import type { SnapshotMcpServer } from "@gateway/contracts";
import { GatewayError } from "@gateway/errors";
import { refreshOAuthToken } from "../oauth/refresh-oauth-token.js";
import type { McpGrantStore, StoredMcpGrant } from "./mcp-grant-store.js";

/** Settings of {@link createMcpGrantRefresher}. */
export interface McpGrantRefresherSettings {
  store: McpGrantStore;
  /** Longest a token request may take. */
  timeoutMs: number;
  /** A token this close to its expiry is refreshed before it is used (default 30 s). */
  expirySkewMs?: number;
  clock?: () => number;
  /**
   * Told once per failed grant (until it changes) when it cannot be refreshed: the app marks it,
   * logs it and raises the `mcp_server.authorization_failed` notification.
   */
  onAuthorizationFailed?: (server: SnapshotMcpServer, reason: string) => void;
}

/** Hands out the credential to send to an MCP server, refreshing OAuth grants when they expire. */
export interface McpGrantRefresher {
  /**
   * The token to send to `server` now: none for `none` servers, the stored bearer token, or the
   * OAuth access token (refreshed first when it expires within the skew). Throws 424
   * `mcp_authorization_failed` when there is none or it cannot be refreshed, 502 `upstream_error`
   * when the authorization server does not answer (a later call tries again).
   */
  accessTokenFor(server: SnapshotMcpServer): Promise<string | null>;
  /**
   * The server answered 401 to `rejectedToken`: refreshes the grant (one refresh for every
   * caller that saw the same rejection) and returns the new token; throws like `accessTokenFor`.
   */
  renewAfterRejection(server: SnapshotMcpServer, rejectedToken: string | null): Promise<string>;
}

/**
 * Creates a {@link McpGrantRefresher}. A refresh reads the grant fresh from the store: when
 * another instance refreshed in between (or the server was authorized again), its token is
 * used as it is; otherwise the refresh token is sent to the token endpoint and the answer stored
 * by compare and swap (the rotated refresh token kept). A refusal (`invalid_grant`, no refresh
 * token) marks the server's grant failed once, reports it, and answers every later call with the
 * same error at once until the grant changes: never a hang, never a storm of token requests.
 */
export function createMcpGrantRefresher(settings: McpGrantRefresherSettings): McpGrantRefresher {
  const clock = settings.clock ?? Date.now;
  const skewMs = settings.expirySkewMs ?? 30_000;
  /** Refreshed tokens not yet in the snapshot, by server: used while the snapshot still holds `replaced`. */
  const refreshed = new Map<string, { replaced: string | null; token: string; expiresAt: number | null }>();
  /** Grants that could not be refreshed, by server: the token that failed and the error to answer with. */
  const failed = new Map<string, { token: string | null; error: GatewayError }>();
  const inFlight = new Map<string, Promise<string>>();

  const current = (server: SnapshotMcpServer): { token: string | null; expiresAt: number | null } => {
    const newer = refreshed.get(server.id);
    if (newer !== undefined) {
      if (newer.replaced === server.accessToken) return { token: newer.token, expiresAt: newer.expiresAt };
      refreshed.delete(server.id);
    }
    return { token: server.accessToken, expiresAt: server.accessTokenExpiresAt === null ? null : new Date(server.accessTokenExpiresAt).getTime() };
  };
  const fresh = (expiresAt: number | null) => expiresAt === null || expiresAt - skewMs > clock();

  const fail = async (server: SnapshotMcpServer, grant: StoredMcpGrant | null, staleToken: string | null, reason: string): Promise<never> => {
    const error = new GatewayError("mcp_authorization_failed", {
      message: `The MCP server '${server.name}' needs to be authorized again in the dashboard: ${reason}`,
      details: { server: server.name, server_id: server.id },
    });
    if (failed.get(server.id)?.token !== staleToken) {
      failed.set(server.id, { token: staleToken, error });
      await settings.store.markFailed({ serverId: server.id, previousCiphertext: grant?.tokensCiphertext ?? null, message: reason }).catch(() => false);
      settings.onAuthorizationFailed?.(server, reason);
    }
    throw error;
  };

  const refresh = (server: SnapshotMcpServer, staleToken: string | null): Promise<string> => {
    const running = inFlight.get(server.id);
    if (running !== undefined) return running;
    const work = (async (): Promise<string> => {
      const grant = await settings.store.read(server.id);
      if (grant === null) throw new GatewayError("tool_not_found", { message: `The MCP server '${server.name}' is no longer registered.` });
      const stored = grant.tokens?.accessToken || null;
      // Another instance refreshed (or the server was authorized again) since this snapshot.
      if (stored !== null && stored !== staleToken && fresh(grant.expiresAt?.getTime() ?? null)) {
        refreshed.set(server.id, { replaced: server.accessToken, token: stored, expiresAt: grant.expiresAt?.getTime() ?? null });
        failed.delete(server.id);
        return stored;
      }
      const refreshToken = grant.tokens?.refreshToken ?? null;
      if (refreshToken === null || grant.tokenEndpoint === null || grant.client === null || grant.tokensCiphertext === null) {
        return fail(server, grant, staleToken, "its access token expired and it holds no refresh token.");
      }
      let answer;
      try {
        answer = await refreshOAuthToken({ tokenEndpoint: grant.tokenEndpoint, client: grant.client, refreshToken, resource: grant.resource, timeoutMs: settings.timeoutMs });
      } catch (error) {
        if (!GatewayError.isInstance(error) || error.code !== "mcp_authorization_failed") throw error;
        // A concurrent refresh elsewhere may have rotated the refresh token we sent: its result wins.
        const again = await settings.store.read(server.id);
        const winner = again?.tokens?.accessToken || null;
        if (again !== null && winner !== null && again.tokensCiphertext !== grant.tokensCiphertext && fresh(again.expiresAt?.getTime() ?? null)) {
          refreshed.set(server.id, { replaced: server.accessToken, token: winner, expiresAt: again.expiresAt?.getTime() ?? null });
          return winner;
        }
        return fail(server, grant, staleToken, error.message);
      }
      const expiresAt = typeof answer.expires_in === "number" ? clock() + answer.expires_in * 1000 : null;
      const tokens = {
        accessToken: answer.access_token,
        refreshToken: answer.refresh_token ?? refreshToken,
        tokenType: answer.token_type,
        scope: answer.scope ?? grant.tokens?.scope ?? null,
      };
      // Lost the compare and swap: another writer stored tokens meanwhile; ours are valid all the same.
      await settings.store.storeRefreshed({ serverId: server.id, previousCiphertext: grant.tokensCiphertext, tokens, expiresAt: expiresAt === null ? null : new Date(expiresAt) });
      refreshed.set(server.id, { replaced: server.accessToken, token: tokens.accessToken, expiresAt });
      failed.delete(server.id);
      return tokens.accessToken;
    })().finally(() => inFlight.delete(server.id));
    inFlight.set(server.id, work);
    return work;
  };

  const rememberedFailure = (server: SnapshotMcpServer, token: string | null): GatewayError | null => {
    const remembered = failed.get(server.id);
    if (remembered === undefined) return null;
    if (remembered.token === token) return remembered.error;
    failed.delete(server.id);
    return null;
  };

  return {
    async accessTokenFor(server) {
      if (server.authKind === "none") return null;
      const { token, expiresAt } = current(server);
      if (token === null) {
        throw new GatewayError("mcp_authorization_failed", {
          message: `The MCP server '${server.name}' is not authorized: connect it in the dashboard.`,
          details: { server: server.name, server_id: server.id },
        });
      }
      if (server.authKind === "bearer" || fresh(expiresAt)) return token;
      const known = rememberedFailure(server, token);
      if (known !== null) throw known;
      return refresh(server, token);
    },
    async renewAfterRejection(server, rejectedToken) {
      if (server.authKind !== "oauth") {
        const reason = "it refused the stored bearer token.";
        if (failed.get(server.id)?.token !== rejectedToken) {
          failed.set(server.id, { token: rejectedToken, error: new GatewayError("mcp_authorization_failed") });
          settings.onAuthorizationFailed?.(server, reason);
        }
        throw new GatewayError("mcp_authorization_failed", {
          message: `The MCP server '${server.name}' refused the gateway's credential: update its bearer token in the dashboard.`,
          details: { server: server.name, server_id: server.id },
        });
      }
      const { token } = current(server);
      // Someone already replaced the rejected token (a concurrent caller's refresh): use theirs.
      if (token !== null && token !== rejectedToken) return token;
      const known = rememberedFailure(server, rejectedToken);
      if (known !== null) throw known;
      return refresh(server, rejectedToken);
    },
  };
}
