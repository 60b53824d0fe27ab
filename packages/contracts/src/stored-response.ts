/**
 * A stored Responses answer (`POST /v1/responses` with `store`): what `GET /v1/responses/{id}`
 * returns and what a `previous_response_id` continues. Written by the gateway (`@gateway/pipeline`),
 * kept by `@gateway/db` (or in memory).
 */
export interface StoredResponse {
  /** The response id (`resp_...`). */
  id: string;
  organizationId: string;
  /** Stored responses are read, continued and deleted within this project only. */
  projectId: string;
  /** The key that created it. */
  apiKeyId: string;
  createdAt: Date;
  /** After this it is gone (reads treat it as missing; a sweep deletes it). */
  expiresAt: Date;
  /** The response object as the caller received it. */
  response: Record<string, unknown>;
  /** The input items of the request that created it, each with an `id` (`GET /v1/responses/{id}/input_items`). */
  inputItems: Record<string, unknown>[];
  /**
   * Every item a next turn continues from, in order: the earlier turns' items (when it continued
   * a `previous_response_id`), this request's input items, then its output items. Kept whole so
   * that continuing a conversation is one indexed read, however long the chain.
   */
  conversation: Record<string, unknown>[];
}
