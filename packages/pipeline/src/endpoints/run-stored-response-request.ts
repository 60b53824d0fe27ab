import { GatewayError, normalizeError } from "@gateway/errors";
import type { PipelineDependencies } from "../call/pipeline-dependencies.js";
import type { PipelineJsonResponse } from "../call/pipeline-response.js";
import { renderErrorResponse } from "../call/render-error-response.js";
import { toInputItemResource } from "./input-item-resource.js";
import type { ResponseStore } from "../runtime/response-store.js";
import { authenticate } from "../stages/authenticate.js";
import type { RequestHeaders } from "../stages/request-headers.js";

/** Input of {@link runStoredResponseRequest}. */
export interface StoredResponseRequestInput {
  requestId: string;
  headers: RequestHeaders;
  /** `get`: the response; `delete`: forget it; `input_items`: its input items, paginated. */
  action: "get" | "delete" | "input_items";
  /** The response id of the path. */
  id: string;
  /** The query string's parameters (`input_items`: `limit`, `order`, `after`; `get`: `stream` is refused). */
  query?: URLSearchParams;
}

/**
 * `GET /v1/responses/{id}`, `DELETE /v1/responses/{id}` and `GET /v1/responses/{id}/input_items`
 * on the gateway's stored responses: authenticated like any call (Bearer key), answered from the
 * caller's project only (a response of another project, an expired one, or any while the project
 * does not capture content, is 404 `not_found`).
 * `input_items` answers OpenAI's list (`data` in OpenAI's item shapes, see `toInputItemResource`;
 * `first_id`, `last_id`, `has_more`) with `limit`
 * 1..100 (default 20), `order` `desc` (default) or `asc`, and `after` (an item id). These reads
 * are not inference calls: no provider is called and no usage is recorded.
 */
export async function runStoredResponseRequest(
  dependencies: Pick<PipelineDependencies, "snapshots" | "onInternalError"> & { responseStore?: ResponseStore | null },
  input: StoredResponseRequestInput,
): Promise<PipelineJsonResponse> {
  const headers = { "x-request-id": input.requestId };
  try {
    const identity = authenticate(input.headers, dependencies.snapshots.current(), { allowApiKeyHeader: false });
    const store = dependencies.responseStore ?? null;
    const notFound = () => new GatewayError("not_found", { message: `No response with id '${input.id.slice(0, 200)}' in this project.` });
    if (store === null) throw notFound();
    const key = { projectId: identity.project.id, id: input.id };
    if (input.action === "delete") {
      if (!(await store.delete(key))) throw notFound();
      return { status: 200, headers, body: { id: input.id, object: "response.deleted", deleted: true } };
    }
    if (input.action === "get" && input.query?.get("stream") === "true") {
      throw new GatewayError("unsupported_feature", { param: "stream", message: "Stored responses cannot be streamed again; retrieve them without 'stream'." });
    }
    // A project that stopped capturing content serves none of what it stored (a background sweep deletes it).
    const stored = identity.project.captureContent ? await store.get(key) : null;
    if (stored === null) throw notFound();
    if (input.action === "get") return { status: 200, headers, body: stored.response };
    return { status: 200, headers, body: listItems(stored.inputItems, input.query ?? new URLSearchParams()) };
  } catch (thrown) {
    const error = normalizeError(thrown);
    if (error.code === "internal_error") dependencies.onInternalError?.(thrown, input.requestId);
    return renderErrorResponse(error, { requestId: input.requestId, format: "gateway" });
  }
}

function listItems(items: Record<string, unknown>[], query: URLSearchParams): Record<string, unknown> {
  const limitText = query.get("limit");
  const limit = limitText === null ? 20 : Number(limitText);
  if (!Number.isInteger(limit) || limit < 1 || limit > 100) throw new GatewayError("invalid_request", { param: "limit", message: "'limit' must be an integer from 1 to 100." });
  const order = query.get("order") ?? "desc";
  if (order !== "asc" && order !== "desc") throw new GatewayError("invalid_request", { param: "order", message: "'order' must be \"asc\" or \"desc\"." });
  let ordered = order === "asc" ? items : [...items].reverse();
  const after = query.get("after");
  if (after !== null) {
    const position = ordered.findIndex((item) => item.id === after);
    if (position === -1) throw new GatewayError("invalid_request", { param: "after", message: `'after' names no input item of this response.` });
    ordered = ordered.slice(position + 1);
  }
  // Items stored before they were kept in OpenAI's shapes are listed in them too (their ids are kept).
  const data = ordered.slice(0, limit).map(toInputItemResource);
  return {
    object: "list",
    data,
    first_id: (data[0]?.id as string | undefined) ?? null,
    last_id: (data.at(-1)?.id as string | undefined) ?? null,
    has_more: ordered.length > limit,
  };
}
