import type { AdapterConnection, ProviderTarget } from "../../provider-adapter.js";
import { baseUrlOf, servedModelOf } from "../../upstream-call.js";
import { type AzureOpenAiSettings, azureOpenAiDefaultApiVersion } from "./azure-openai-settings.js";

/**
 * The deployment that serves a target: the connection's `deployments` entry for its
 * `<vendor>/<model>`, else the upstream model name (deployments named after their model).
 */
export function azureDeploymentOf(settings: AzureOpenAiSettings, target: ProviderTarget): string {
  const served = servedModelOf(target);
  return Object.hasOwn(settings.deployments, served) ? settings.deployments[served]! : target.upstreamModel;
}

/** The resource endpoint without a trailing `/`, `/openai` or `/openai/v1` (either form may be given). */
export function azureResourceEndpoint(connection: AdapterConnection): string {
  return baseUrlOf(connection).replace(/\/+$/, "").replace(/\/openai(\/v1)?$/i, "");
}

/**
 * The URL of an operation (`/chat/completions`, `/embeddings`, `/responses`, `/models`):
 * `{endpoint}/openai/deployments/{deployment}{path}?api-version=` on the deployments API (the
 * model list: `{endpoint}/openai/models?api-version=`), `{endpoint}/openai/v1{path}` on the v1 API.
 */
export function azureOpenAiUrl(connection: AdapterConnection, settings: AzureOpenAiSettings, path: string, deployment: string | null): string {
  const endpoint = azureResourceEndpoint(connection);
  if (settings.apiStyle === "v1") {
    return `${endpoint}/openai/v1${path}${settings.apiVersion === null ? "" : `?api-version=${encodeURIComponent(settings.apiVersion)}`}`;
  }
  const version = `?api-version=${encodeURIComponent(settings.apiVersion ?? azureOpenAiDefaultApiVersion)}`;
  return deployment === null ? `${endpoint}/openai${path}${version}` : `${endpoint}/openai/deployments/${encodeURIComponent(deployment)}${path}${version}`;
}
