import { normalizeError } from "@gateway/errors";
import { type CallerIdentity, authenticate } from "../stages/authenticate.js";
import { buildUsageEvent } from "../stages/build-usage-event.js";
import { listAvailableModels } from "../stages/list-available-models.js";
import type { PipelineDependencies } from "../call/pipeline-dependencies.js";
import type { PipelineJsonResponse } from "../call/pipeline-response.js";
import { renderErrorResponse } from "../call/render-error-response.js";
import { type RequestContext, createRequestContext } from "../stages/request-context.js";
import { readHeader, type RequestHeaders } from "../stages/request-headers.js";

/** Input of {@link runListModels}. */
export interface ListModelsInput {
  requestId: string;
  headers: RequestHeaders;
  startedAt?: number;
}

/**
 * `GET /v1/models`: the models the caller's key may use, in OpenAI's list format (each with the
 * gateway extension `endpoints`: the gateway endpoints it serves, e.g. `["chat_completions",
 * "messages", "responses", "decisions"]` or `["embeddings"]`), or in
 * Anthropic's when the request carries `anthropic-version` (then `x-api-key` is accepted and
 * errors use the Anthropic body).
 */
export function runListModels(
  dependencies: Pick<PipelineDependencies, "snapshots" | "usage" | "requestTimeoutMs" | "onInternalError">,
  input: ListModelsInput,
): PipelineJsonResponse {
  const startedAt = input.startedAt ?? Date.now();
  const anthropic = readHeader(input.headers, "anthropic-version") !== undefined;
  let context: RequestContext | null = null;
  let identity: CallerIdentity | null = null;
  let status = 200;
  let errorCode: string | null = null;
  try {
    context = createRequestContext({
      requestId: input.requestId,
      headers: input.headers,
      endpoint: "models",
      timeoutMs: dependencies.requestTimeoutMs,
      startedAt,
    });
    const snapshot = dependencies.snapshots.current();
    identity = authenticate(input.headers, snapshot, { allowApiKeyHeader: anthropic });
    const models = listAvailableModels(snapshot, identity);
    const body = anthropic
      ? {
          data: models.map((model) => ({
            type: "model",
            id: model.id,
            display_name: model.id,
            created_at: "1970-01-01T00:00:00Z",
          })),
          has_more: false,
          first_id: models[0]?.id ?? null,
          last_id: models.at(-1)?.id ?? null,
        }
      : {
          object: "list",
          data: models.map((model) => ({ id: model.id, object: "model", created: 0, owned_by: model.ownedBy, endpoints: model.endpoints })),
        };
    return { status: 200, headers: { "x-request-id": input.requestId }, body };
  } catch (thrown) {
    const error = normalizeError(thrown);
    status = error.status;
    errorCode = error.code;
    if (error.code === "internal_error") dependencies.onInternalError?.(thrown, input.requestId);
    return renderErrorResponse(error, { requestId: input.requestId, format: anthropic ? "anthropic" : "gateway" });
  } finally {
    dependencies.usage.enqueue(
      buildUsageEvent({ context, requestId: input.requestId, endpoint: "models", startedAt, identity, status, errorCode }),
    );
  }
}
