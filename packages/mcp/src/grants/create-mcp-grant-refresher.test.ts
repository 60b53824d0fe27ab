import type { SnapshotMcpServer } from "@gateway/contracts";
import { GatewayError } from "@gateway/errors";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildAuthorizationUrl } from "../oauth/build-authorization-url.js";
import { createPkcePair } from "../oauth/create-pkce-pair.js";
import { exchangeAuthorizationCode } from "../oauth/exchange-authorization-code.js";
import { registerOAuthClient } from "../oauth/register-oauth-client.js";
import { type LocalOAuthServer, startLocalOAuthServer } from "../testing/start-local-oauth-server.js";
import { createMcpGrantRefresher } from "./create-mcp-grant-refresher.js";
import type { McpGrantStore, StoredMcpGrant } from "./mcp-grant-store.js";

let authorization: LocalOAuthServer;
beforeAll(async () => {
  authorization = await startLocalOAuthServer();
});
afterAll(async () => authorization.close());

const redirectUri = "http://127.0.0.1:9/callback";

/** A grant from a real code flow against the local authorization server. */
async function authorize(): Promise<{ accessToken: string; refreshToken: string; clientId: string }> {
  const client = await registerOAuthClient({ registrationEndpoint: `${authorization.issuer}/register`, redirectUri, clientName: "test", authMethodsSupported: ["none"], scope: null, timeoutMs: 2000 });
  const pkce = createPkcePair();
  const location = (await fetch(buildAuthorizationUrl({ authorizationEndpoint: `${authorization.issuer}/authorize`, clientId: client.clientId, redirectUri, state: "s", codeChallenge: pkce.challenge, scope: null, resource: authorization.resourceUrl }), { redirect: "manual" })).headers.get("location")!;
  const tokens = await exchangeAuthorizationCode({ tokenEndpoint: `${authorization.issuer}/token`, client, code: new URL(location).searchParams.get("code")!, redirectUri, codeVerifier: pkce.verifier, resource: authorization.resourceUrl, timeoutMs: 2000 });
  return { accessToken: tokens.access_token, refreshToken: tokens.refresh_token!, clientId: client.clientId };
}

/** An in-memory grant store with the database functions' compare-and-swap. */
function createStore(initial: { accessToken: string; refreshToken: string | null; clientId: string; expiresAt: Date | null; tokenEndpoint?: string }) {
  let version = 1;
  const row = {
    ciphertext: `v${version}`,
    tokens: { accessToken: initial.accessToken, refreshToken: initial.refreshToken },
    expiresAt: initial.expiresAt,
    status: "connected",
    statusMessage: null as string | null,
  };
  const reads: number[] = [];
  const store: McpGrantStore = {
    async read(serverId): Promise<StoredMcpGrant> {
      reads.push(Date.now());
      return {
        serverId,
        organizationId: "org_1",
        name: "tickets",
        authKind: "oauth",
        tokensCiphertext: row.ciphertext,
        tokens: { ...row.tokens },
        expiresAt: row.expiresAt,
        tokenEndpoint: initial.tokenEndpoint ?? `${authorization.issuer}/token`,
        resource: authorization.resourceUrl,
        client: { clientId: initial.clientId, clientSecret: null, tokenEndpointAuthMethod: "none" },
      };
    },
    async storeRefreshed(input) {
      if (input.previousCiphertext !== row.ciphertext) return false;
      version += 1;
      row.ciphertext = `v${version}`;
      row.tokens = { accessToken: input.tokens.accessToken, refreshToken: input.tokens.refreshToken };
      row.expiresAt = input.expiresAt;
      return true;
    },
    async markFailed(input) {
      if (input.previousCiphertext !== row.ciphertext) return false;
      row.status = "error";
      row.statusMessage = input.message;
      return true;
    },
  };
  /** What another instance's refresh (or a new authorization) would leave in the database. */
  const replace = (tokens: { accessToken: string; refreshToken: string | null }, expiresAt: Date | null) => {
    version += 1;
    row.ciphertext = `v${version}`;
    row.tokens = tokens;
    row.expiresAt = expiresAt;
  };
  return { store, row, reads, replace };
}

const server = (fields: Partial<SnapshotMcpServer>): SnapshotMcpServer => ({
  id: "srv_1",
  organizationId: "org_1",
  name: "tickets",
  url: authorization.resourceUrl,
  transport: "streamable_http",
  authKind: "oauth",
  status: "connected",
  accessToken: null,
  accessTokenExpiresAt: null,
  ...fields,
});
const refreshRequests = () => authorization.tokenRequests.filter((form) => form.get("grant_type") === "refresh_token").length;
const past = () => new Date(Date.now() - 1000);

describe("createMcpGrantRefresher", () => {
  it("hands out no token, the bearer token, or a fresh access token as they are", async () => {
    const { store } = createStore({ accessToken: "unused", refreshToken: null, clientId: "c", expiresAt: null });
    const refresher = createMcpGrantRefresher({ store, timeoutMs: 2000 });
    expect(await refresher.accessTokenFor(server({ authKind: "none" }))).toBeNull();
    expect(await refresher.accessTokenFor(server({ authKind: "bearer", accessToken: "static", accessTokenExpiresAt: past() }))).toBe("static");
    expect(await refresher.accessTokenFor(server({ accessToken: "fresh", accessTokenExpiresAt: new Date(Date.now() + 3_600_000) }))).toBe("fresh");
    await expect(refresher.accessTokenFor(server({ accessToken: null }))).rejects.toMatchObject({ code: "mcp_authorization_failed" });
  });

  it("refreshes an expiring grant once for every concurrent caller, keeps the rotated refresh token and stores the result", async () => {
    const grant = await authorize();
    const { store, row } = createStore({ ...grant, expiresAt: past() });
    const refresher = createMcpGrantRefresher({ store, timeoutMs: 2000 });
    const before = refreshRequests();
    const expiring = server({ accessToken: grant.accessToken, accessTokenExpiresAt: new Date(Date.now() + 10_000) });
    const tokens = await Promise.all([refresher.accessTokenFor(expiring), refresher.accessTokenFor(expiring), refresher.accessTokenFor(expiring)]);
    expect(refreshRequests()).toBe(before + 1);
    expect(new Set(tokens).size).toBe(1);
    expect(tokens[0]).not.toBe(grant.accessToken);
    expect(authorization.isValidAccessToken(tokens[0] ?? undefined)).toBe(true);
    expect(row.tokens.accessToken).toBe(tokens[0]);
    expect(row.tokens.refreshToken).not.toBe(grant.refreshToken);
    expect(row.expiresAt!.getTime()).toBeGreaterThan(Date.now() + 3_000_000);
    // Until the snapshot catches up, the stale snapshot's token is replaced by the refreshed one.
    expect(await refresher.accessTokenFor(expiring)).toBe(tokens[0]);
    expect(refreshRequests()).toBe(before + 1);
  });

  it("uses the token another instance stored instead of refreshing again", async () => {
    const grant = await authorize();
    const { store, replace } = createStore({ ...grant, expiresAt: past() });
    replace({ accessToken: "at_from_elsewhere", refreshToken: "rt_from_elsewhere" }, new Date(Date.now() + 3_600_000));
    const refresher = createMcpGrantRefresher({ store, timeoutMs: 2000 });
    const before = refreshRequests();
    expect(await refresher.accessTokenFor(server({ accessToken: grant.accessToken, accessTokenExpiresAt: past() }))).toBe("at_from_elsewhere");
    expect(refreshRequests()).toBe(before);
  });

  it("renews a token the server rejected, and refuses fast (marked once, reported once) when the grant is gone", async () => {
    const grant = await authorize();
    const { store, row } = createStore({ ...grant, expiresAt: new Date(Date.now() + 3_600_000) });
    const failures: string[] = [];
    const refresher = createMcpGrantRefresher({ store, timeoutMs: 2000, onAuthorizationFailed: (_server, reason) => failures.push(reason) });
    const live = server({ accessToken: grant.accessToken, accessTokenExpiresAt: row.expiresAt });
    const renewed = await refresher.renewAfterRejection(live, grant.accessToken);
    expect(renewed).not.toBe(grant.accessToken);

    authorization.revokeRefreshTokens();
    const stale = server({ accessToken: renewed, accessTokenExpiresAt: row.expiresAt });
    const before = refreshRequests();
    const error = await refresher.renewAfterRejection(stale, renewed).catch((thrown: unknown) => thrown);
    expect(GatewayError.isInstance(error) && error.code).toBe("mcp_authorization_failed");
    expect((error as GatewayError).message).toMatch(/needs to be authorized again in the dashboard: .*invalid_grant/);
    expect(row).toMatchObject({ status: "error", statusMessage: expect.stringContaining("invalid_grant") });
    expect(failures).toHaveLength(1);
    for (let attempt = 0; attempt < 3; attempt += 1) await expect(refresher.renewAfterRejection(stale, renewed)).rejects.toMatchObject({ code: "mcp_authorization_failed" });
    expect(refreshRequests()).toBe(before + 1);
    expect(failures).toHaveLength(1);
    // Authorized again: a new token in the snapshot is used at once.
    expect(await refresher.accessTokenFor(server({ accessToken: "at_new_grant", accessTokenExpiresAt: new Date(Date.now() + 3_600_000) }))).toBe("at_new_grant");
  });

  it("gives a grant without a refresh token up at once, and retries later when the token endpoint is down", async () => {
    const noRefresh = createStore({ accessToken: "at_old", refreshToken: null, clientId: "c", expiresAt: past() });
    const refresher = createMcpGrantRefresher({ store: noRefresh.store, timeoutMs: 2000 });
    await expect(refresher.accessTokenFor(server({ accessToken: "at_old", accessTokenExpiresAt: past() }))).rejects.toMatchObject({
      code: "mcp_authorization_failed",
      message: expect.stringContaining("holds no refresh token"),
    });

    const down = createStore({ accessToken: "at_old", refreshToken: "rt_old", clientId: "c", expiresAt: past(), tokenEndpoint: "http://127.0.0.1:9/token" });
    const failures: string[] = [];
    const retrying = createMcpGrantRefresher({ store: down.store, timeoutMs: 2000, onAuthorizationFailed: (_server, reason) => failures.push(reason) });
    const expired = server({ accessToken: "at_old", accessTokenExpiresAt: past() });
    await expect(retrying.accessTokenFor(expired)).rejects.toMatchObject({ code: "upstream_error", retryable: true });
    const readsBefore = down.reads.length;
    await expect(retrying.accessTokenFor(expired)).rejects.toMatchObject({ code: "upstream_error" });
    expect(down.reads.length).toBeGreaterThan(readsBefore);
    expect(failures).toEqual([]);
    expect(down.row.status).toBe("connected");
  });
});
