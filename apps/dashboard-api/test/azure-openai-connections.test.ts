import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type AzureOpenAiMock, startAzureOpenAiMock } from "../../../packages/provider-adapters/test/mocks/azure-openai-mock.js";
import { startTestDashboard, type TestDashboard } from "./support/test-dashboard.js";

const apiKey = "azure-key-0123456789abcdef0123456789ab";
const entra = { tenantId: "contoso", clientId: "11111111-2222-3333-4444-555555555555", clientSecret: "entra~client~secret~value~0123456789" };

describe("azure-openai connections in the dashboard API", () => {
  let harness: TestDashboard;
  let owner: string;
  let mock: AzureOpenAiMock;

  beforeAll(async () => {
    mock = await startAzureOpenAiMock({ apiKey, deployments: { "gpt4o-prod": "gpt-4o" }, entra });
    harness = await startTestDashboard({ target: "sqlite" });
    const organizationId = (await harness.createOrganization()).id;
    const member = await harness.createMember({ organizationId, role: "owner" });
    owner = await harness.login(member.email, member.password);
  });
  afterAll(async () => {
    await harness?.close();
    await mock?.close();
  });

  const call = (method: string, urlPath: string, body?: unknown) => harness.request(method, urlPath, { cookie: owner, body });

  it("checks settings against the kind's schema, naming the bad field; stores and shows good ones", async () => {
    const refused = await call("POST", "/api/connections", { name: "azure-bad", kind: "azure-openai", base_url: mock.url, settings: { deployments: { "gpt-4o": "gpt4o-prod" } } });
    expect(refused.status).toBe(400);
    expect(refused.body.error.details.param).toBe("settings.deployments.gpt-4o");
    const misspelt = await call("POST", "/api/connections", { name: "azure-bad", kind: "azure-openai", base_url: mock.url, settings: { apiVersoin: "2024-10-21" } });
    expect(misspelt.body.error.details.param).toBe("settings.apiVersoin");
    const settings = { deployments: { "openai/gpt-4o": "gpt4o-prod" }, apiVersion: "2024-10-21" };
    const created = await call("POST", "/api/connections", { name: "azure-key", kind: "azure-openai", base_url: mock.url, credential: apiKey, models: ["openai/gpt-4o"], settings });
    expect(created.status, created.text).toBe(201);
    expect(created.body.settings).toEqual(settings);
    const patched = await call("PATCH", `/api/connections/${created.body.id}`, { settings: { ...settings, apiStyle: "v3" } });
    expect(patched.body.error.details.param).toBe("settings.apiStyle");
    const kinds = await call("GET", "/api/connection-kinds");
    const azure = kinds.body.data.find((kind: { kind: string }) => kind.kind === "azure-openai");
    expect(azure).toMatchObject({ label: "Azure OpenAI", default_base_url: null, settings_schema: { type: "object", properties: { deployments: {}, apiVersion: {}, apiStyle: {}, entra: {} } } });
  });

  it("tests an api-key connection by listing the resource's models with the api-version", async () => {
    const created = await call("POST", "/api/connections", { name: "azure-listed", kind: "azure-openai", base_url: mock.url, credential: apiKey });
    const tested = await call("POST", `/api/connections/${created.body.id}/test`);
    expect(tested.body).toMatchObject({ ok: true, status_code: 200 });
    const listed = mock.requests.at(-1)!;
    expect(listed).toMatchObject({ method: "GET", path: "/openai/models", headers: { "api-key": apiKey } });
    expect(listed.query.get("api-version")).toBe("2024-10-21");
  });

  it("tests an Entra ID connection with a token from the authority, and says so without the secret when the secret is wrong", async () => {
    const settings = { apiStyle: "v1", entra: { tenantId: entra.tenantId, clientId: entra.clientId, authorityHost: mock.url } };
    const created = await call("POST", "/api/connections", { name: "azure-entra", kind: "azure-openai", base_url: mock.url, credential: entra.clientSecret, settings });
    expect(created.status, created.text).toBe(201);
    const tested = await call("POST", `/api/connections/${created.body.id}/test`);
    expect(tested.body).toMatchObject({ ok: true, status_code: 200 });
    expect(mock.requests.at(-1)).toMatchObject({ path: "/openai/v1/models", headers: { authorization: `Bearer ${mock.issuedTokens.at(-1)}` } });
    // Each test asks for its token with its own deadline: a second test passes too.
    expect((await call("POST", `/api/connections/${created.body.id}/test`)).body).toMatchObject({ ok: true });

    await call("PATCH", `/api/connections/${created.body.id}`, { credential: "wrong~secret~value~0123456789" });
    const refused = await call("POST", `/api/connections/${created.body.id}/test`);
    expect(refused.body).toMatchObject({ ok: false, status_code: 401, message: expect.stringMatching(/Entra ID refused the client credentials.*invalid_client/) });
    expect(JSON.stringify(refused.body)).not.toContain("wrong~secret");
  });
});
