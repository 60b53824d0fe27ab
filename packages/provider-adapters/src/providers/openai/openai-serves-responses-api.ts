import type { AdapterConnection } from "../../provider-adapter.js";

const openAiHost = /^https:\/\/api\.openai\.com(?:[/:]|$)/i;

/**
 * Whether an `openai` connection's upstream serves the Responses API: its `responsesApi`
 * setting, or (unset) whether its base URL is OpenAI's own API (an unset base URL is).
 */
export function openAiServesResponsesApi(connection: Pick<AdapterConnection, "baseUrl"> & Partial<Pick<AdapterConnection, "responsesApi">>): boolean {
  if (typeof connection.responsesApi === "boolean") return connection.responsesApi;
  return connection.baseUrl === null || connection.baseUrl === undefined || connection.baseUrl === "" || openAiHost.test(connection.baseUrl);
}
