import { describe, expect, it } from "vitest";
import { createEntraTokenSource } from "./entra-token-source.js";

const entra = { tenantId: "contoso", clientId: "client-1", authorityHost: "http://127.0.0.1:1" };
const clientSecret = "entra~secret~value~0123456789";

/** A token endpoint double: answers in order, records each request. */
function tokenEndpoint(answers: { status: number; body: unknown }[]) {
  const calls: { url: string; body: string }[] = [];
  const fetch = (async (url: string, init: RequestInit) => {
    calls.push({ url, body: String(init.body) });
    const answer = answers[Math.min(calls.length - 1, answers.length - 1)]!;
    return new Response(JSON.stringify(answer.body), { status: answer.status, headers: { "content-type": "application/json" } });
  }) as unknown as typeof globalThis.fetch;
  return { fetch, calls };
}

const token = (name: string, expiresIn = 3600) => ({ status: 200, body: { token_type: "Bearer", expires_in: expiresIn, access_token: name } });

describe("createEntraTokenSource", () => {
  it("posts the client-credentials grant for the Cognitive Services scope and caches the token", async () => {
    const endpoint = tokenEndpoint([token("first")]);
    const source = createEntraTokenSource({ entra, clientSecret, fetch: endpoint.fetch, provider: "azure", now: () => 0 });
    const [one, two] = await Promise.all([source.token(), source.token()]);
    expect([one, two, await source.token()]).toEqual(["first", "first", "first"]);
    expect(endpoint.calls).toHaveLength(1);
    expect(endpoint.calls[0]!.url).toBe("http://127.0.0.1:1/contoso/oauth2/v2.0/token");
    expect(Object.fromEntries(new URLSearchParams(endpoint.calls[0]!.body))).toEqual({
      client_id: "client-1",
      client_secret: clientSecret,
      grant_type: "client_credentials",
      scope: "https://cognitiveservices.azure.com/.default",
    });
  });

  it("refreshes five minutes ahead of expiry, and keeps a still-valid token when a refresh fails", async () => {
    let time = 0;
    const endpoint = tokenEndpoint([token("first"), token("second"), { status: 503, body: {} }]);
    const source = createEntraTokenSource({ entra, clientSecret, fetch: endpoint.fetch, provider: "azure", now: () => time });
    expect(await source.token()).toBe("first");
    time = 3600_000 - 5 * 60_000 - 1;
    expect(await source.token()).toBe("first");
    time += 1;
    expect(await source.token()).toBe("second");
    time += 3600_000 - 5 * 60_000;
    expect(await source.token()).toBe("second");
    time += 5 * 60_000;
    await expect(source.token()).rejects.toMatchObject({ code: "upstream_error" });
  });

  it("names the refused grant without the secret, even when the answer echoes it", async () => {
    const endpoint = tokenEndpoint([{ status: 401, body: { error: "invalid_client", error_description: `AADSTS7000215: Invalid client secret provided: ${clientSecret}` } }]);
    const source = createEntraTokenSource({ entra, clientSecret, fetch: endpoint.fetch, provider: "azure" });
    const error = (await source.token().catch((caught: unknown) => caught)) as Error & { details: unknown };
    expect(error.message).toMatch(/refused the client credentials of the connection 'azure' \(status 401, invalid_client\)/);
    expect(error.message).not.toContain(clientSecret);
    expect(error.details).toMatchObject({ upstreamStatus: 401 });
  });
});
