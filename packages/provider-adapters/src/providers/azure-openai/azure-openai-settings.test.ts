import { describe, expect, it } from "vitest";
import { checkConnectionSettings } from "../connection-settings.js";
import { azureOpenAiUrl } from "./azure-openai-endpoint.js";
import { azureOpenAiSettingsSchema } from "./azure-openai-settings.js";

const connection = { id: "c", name: "azure", kind: "azure-openai", baseUrl: "https://contoso.openai.azure.com/", credential: "key", headers: {} };

describe("azure-openai settings", () => {
  it("accepts deployments, an api-version, the v1 API and Entra ID client credentials", () => {
    const settings = { deployments: { "openai/gpt-4o": "gpt4o-prod" }, apiVersion: "2025-04-01-preview", apiStyle: "v1", entra: { tenantId: "contoso.onmicrosoft.com", clientId: "11111111-2222-3333-4444-555555555555" } };
    expect(checkConnectionSettings("azure-openai", settings)).toEqual({ ok: true, settings });
  });

  it.each([
    [{ deployment: {} }, ["deployment"]],
    [{ deployments: { "gpt-4o": "x" } }, ["deployments", "gpt-4o"]],
    [{ deployments: { "openai/gpt-4o": "has space" } }, ["deployments", "openai/gpt-4o"]],
    [{ apiStyle: "v2" }, ["apiStyle"]],
    [{ entra: { tenantId: "t" } }, ["entra", "clientId"]],
    [{ entra: { tenantId: "t", clientId: "c", authorityHost: "http://login.example.com" } }, ["entra", "authorityHost"]],
  ])("names the bad field of %j", (settings, path) => {
    const checked = checkConnectionSettings("azure-openai", settings);
    expect(checked.ok).toBe(false);
    if (!checked.ok) expect(checked.issue.path).toEqual(path);
  });

  it("builds deployment and v1 URLs from the resource endpoint, given with or without /openai", () => {
    const deploymentsApi = azureOpenAiSettingsSchema.parse({});
    expect(azureOpenAiUrl(connection, deploymentsApi, "/chat/completions", "gpt 4o")).toBe("https://contoso.openai.azure.com/openai/deployments/gpt%204o/chat/completions?api-version=2024-10-21");
    expect(azureOpenAiUrl(connection, deploymentsApi, "/models", null)).toBe("https://contoso.openai.azure.com/openai/models?api-version=2024-10-21");
    const v1 = azureOpenAiSettingsSchema.parse({ apiStyle: "v1" });
    expect(azureOpenAiUrl({ ...connection, baseUrl: "https://contoso.openai.azure.com/openai/v1" }, v1, "/responses", "ignored")).toBe("https://contoso.openai.azure.com/openai/v1/responses");
  });

  it("reads stored settings leniently: a bad value takes the default", () => {
    expect(azureOpenAiSettingsSchema.parse({ apiStyle: 3, deployments: "x", entra: { tenantId: 1 } })).toEqual({ deployments: {}, apiVersion: null, apiStyle: "deployments", entra: null });
  });
});
