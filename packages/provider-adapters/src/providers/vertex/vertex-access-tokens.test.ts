import { afterEach, describe, expect, it } from "vitest";
import { rejectionOf } from "../../../test/fake-upstream.js";
import { createTestServiceAccount } from "../../../test/mocks/google-service-account.js";
import { type VertexMock, startVertexMock } from "../../../test/mocks/vertex-mock.js";
import { createOutboundFetch } from "../../outbound/create-outbound-fetch.js";
import { createVertexAccessTokens } from "./vertex-access-tokens.js";

const account = createTestServiceAccount();
let mock: VertexMock | undefined;

afterEach(async () => {
  await mock?.close();
  mock = undefined;
});

async function startMock(tokenLifetimeSeconds?: number): Promise<VertexMock> {
  mock = await startVertexMock({ project: "test-project", location: "us-east5", serviceAccount: account, ...(tokenLifetimeSeconds === undefined ? {} : { tokenLifetimeSeconds }) });
  return mock;
}

/** The outbound fetch, recording the URLs it was asked for. */
function recordingFetch(urls: string[], inner: typeof fetch = createOutboundFetch()): typeof fetch {
  return ((input: string | URL | Request, init?: RequestInit) => {
    urls.push(typeof input === "string" ? input : input instanceof URL ? input.href : input.url);
    return inner(input, init);
  }) as typeof fetch;
}

describe("vertex access tokens", () => {
  it("exchanges an RS256 assertion signed with the key at the key's token_uri, through the given fetch", async () => {
    const { tokenUrl, issuedTokens, assertions } = await startMock();
    const urls: string[] = [];
    const tokens = createVertexAccessTokens({ credential: account.credential(tokenUrl), connectionName: "vertex-test", fetch: recordingFetch(urls) });
    expect(await tokens.token()).toBe(issuedTokens[0]);
    expect(urls).toEqual([tokenUrl]);
    expect(assertions[0]).toMatchObject({ iss: account.clientEmail, aud: "https://oauth2.googleapis.com/token", scope: "https://www.googleapis.com/auth/cloud-platform" });
  });

  it("posts to Google's token endpoint when the key names none", async () => {
    const urls: string[] = [];
    const answer = async () => new Response(JSON.stringify({ access_token: "ya29.from-google", expires_in: 3600, token_type: "Bearer" }), { headers: { "content-type": "application/json" } });
    const key = JSON.parse(account.credential("https://unused.example")) as Record<string, unknown>;
    delete key.token_uri;
    const tokens = createVertexAccessTokens({ credential: JSON.stringify(key), connectionName: "vertex-test", fetch: recordingFetch(urls, answer as unknown as typeof fetch) });
    expect(await tokens.token()).toBe("ya29.from-google");
    expect(urls).toEqual(["https://oauth2.googleapis.com/token"]);
  });

  it("keeps a token until shortly before it expires, and shares one refresh between concurrent callers", async () => {
    const { tokenUrl, issuedTokens } = await startMock(3600);
    const tokens = createVertexAccessTokens({ credential: account.credential(tokenUrl), connectionName: "vertex-test", fetch: createOutboundFetch() });
    const concurrent = await Promise.all(Array.from({ length: 5 }, () => tokens.token()));
    expect(new Set(concurrent).size).toBe(1);
    expect(await tokens.token()).toBe(concurrent[0]);
    expect(issuedTokens).toHaveLength(1);
  });

  it("replaces a token that expires within the refresh margin (five minutes) before using it again", async () => {
    const { tokenUrl, issuedTokens } = await startMock(120);
    const tokens = createVertexAccessTokens({ credential: account.credential(tokenUrl), connectionName: "vertex-test", fetch: createOutboundFetch() });
    const first = await tokens.token();
    const second = await tokens.token();
    expect(second).not.toBe(first);
    expect(issuedTokens).toEqual([first, second]);
  });

  it("a refused assertion is a retryable 502 naming the connection and status, never the key or the endpoint's answer", async () => {
    const { tokenUrl } = await startMock();
    const stranger = createTestServiceAccount(account.clientEmail);
    const tokens = createVertexAccessTokens({ credential: stranger.credential(tokenUrl), connectionName: "vertex-test", fetch: createOutboundFetch() });
    const error = await rejectionOf(tokens.token());
    expect(error).toMatchObject({ code: "upstream_error", retryable: true, details: { provider: "vertex-test", upstreamStatus: 400 } });
    expect(error.message).toContain("'vertex-test'");
    expect(error.message).not.toContain("Invalid JWT");
    expect(error.message).not.toContain("PRIVATE KEY");
    expect(error.cause).toBeUndefined();
  });

  it("a credential that is not a service-account key fails without showing it", async () => {
    const tokens = createVertexAccessTokens({ credential: '{"type":"authorized_user","refresh_token":"1//secret-refresh"}', connectionName: "vertex-test", fetch: createOutboundFetch() });
    const error = await rejectionOf(tokens.token());
    expect(error).toMatchObject({ code: "upstream_error", details: { provider: "vertex-test" } });
    expect(error.message).toContain("not a Google service-account JSON key");
    expect(error.message).not.toContain("secret-refresh");
  });

  it("the token request obeys the outbound address policy (a key's token_uri cannot reach a denied address)", async () => {
    const { tokenUrl, issuedTokens } = await startMock();
    const tokens = createVertexAccessTokens({ credential: account.credential(tokenUrl), connectionName: "vertex-test", fetch: createOutboundFetch({ policy: { privateAddresses: "deny" } }) });
    expect(await rejectionOf(tokens.token())).toMatchObject({ code: "upstream_error", retryable: true });
    expect(issuedTokens).toHaveLength(0);
  });
});
