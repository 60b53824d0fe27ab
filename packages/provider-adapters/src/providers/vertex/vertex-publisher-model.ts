import { GatewayError } from "@gateway/errors";
import type { ProviderTarget } from "../../provider-adapter.js";
import { servedModelOf } from "../../upstream-call.js";

/** The publishers whose models a `vertex` connection serves. */
export type VertexPublisher = "anthropic" | "google";

/** A target's model on Vertex: its publisher and its Vertex model id. */
export interface VertexPublisherModel {
  publisher: VertexPublisher;
  /** The model id in Vertex URLs (`claude-sonnet-4@20250514`, `gemini-2.5-flash`). */
  model: string;
}

/**
 * Routes a target by its vendor (`anthropic/*` models are Claude on Vertex, `google/*` models
 * Gemini and Google's embedding models); the Vertex model id is the upstream model name without
 * the vendor. Any other vendor is 422 `unsupported_feature` (retryable: another target may serve it).
 */
export function vertexPublisherModel(target: ProviderTarget): VertexPublisherModel {
  const vendor = servedModelOf(target).split("/", 1)[0];
  if (vendor !== "anthropic" && vendor !== "google") {
    const provider = target.connection.name;
    throw new GatewayError("unsupported_feature", {
      message: `The connection '${provider}' (Vertex AI) serves anthropic/* and google/* models only.`,
      param: "model",
      retryable: true,
      details: { provider },
    });
  }
  const prefix = `${vendor}/`;
  const model = target.upstreamModel.startsWith(prefix) ? target.upstreamModel.slice(prefix.length) : target.upstreamModel;
  return { publisher: vendor, model };
}
