import { GatewayError } from "@gateway/errors";
import { resolveApiUrl } from "../../connection-api-url.js";
import type { AdapterConnection } from "../../provider-adapter.js";
import type { VertexSettings } from "./vertex-settings.js";

/** The host of Vertex AI's global endpoint (also the default base URL shown for a `vertex` connection). */
export const vertexGlobalBaseUrl = "https://aiplatform.googleapis.com";

/** Options of {@link vertexModelUrl}. */
export interface VertexModelUrlOptions {
  connection: Pick<AdapterConnection, "name" | "kind" | "baseUrl">;
  settings: Pick<VertexSettings, "project" | "location">;
  /** `anthropic` (Claude) or `google` (Gemini and the embedding models). */
  publisher: "anthropic" | "google";
  /** The model id on Vertex (`claude-sonnet-4@20250514`, `gemini-2.5-flash`, `count-tokens`). */
  model: string;
  /** The method after the colon (`rawPredict`, `streamRawPredict`, `generateContent`, ...), with its query if any. */
  method: string;
}

/**
 * The URL of a publisher model's method:
 * `{base}/v1/projects/{project}/locations/{location}/publishers/{publisher}/models/{model}:{method}`.
 * The base is the connection's base URL (given with or without `/v1`: a test server, a private
 * endpoint) or the location's host: `https://{location}-aiplatform.googleapis.com`, and
 * `https://aiplatform.googleapis.com` for the `global` location. A connection without a project
 * or location fails with 502 `upstream_error` naming the setting (retryable: another target of
 * the route may be configured).
 */
export function vertexModelUrl(options: VertexModelUrlOptions): string {
  const { connection, settings } = options;
  const project = settings.project ?? missingSetting(connection.name, "project", "the Google Cloud project");
  const location = settings.location ?? missingSetting(connection.name, "location", "the Vertex AI location, such as us-east5 or global");
  const base = connection.baseUrl ?? (location === "global" ? vertexGlobalBaseUrl : `https://${location}-aiplatform.googleapis.com`);
  // A Vertex base URL is a host: `/v1` is added unless the path already ends in it.
  const root = resolveApiUrl(base, "", false);
  return `${root}/projects/${pathSegment(project)}/locations/${pathSegment(location)}/publishers/${options.publisher}/models/${pathSegment(options.model)}:${options.method}`;
}

/** Encodes one path segment, keeping the characters Vertex model ids use as they are (`@` of `claude-sonnet-4@20250514`). */
function pathSegment(value: string): string {
  return value.replace(/[^A-Za-z0-9\-._~!$&'()*+,=@]+/g, encodeURIComponent);
}

function missingSetting(connection: string, setting: string, what: string): never {
  throw new GatewayError("upstream_error", {
    message: `The connection '${connection}' has no settings.${setting} (${what}).`,
    retryable: true,
    details: { provider: connection },
  });
}
