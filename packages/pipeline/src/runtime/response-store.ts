/** A stored Responses answer: what `GET /v1/responses/{id}` returns and what a next turn continues from. */
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

/**
 * Where stored responses live (`@gateway/db`'s data-plane functions, or the memory store). Every
 * read and delete names the project: a response of another project is never found.
 */
export interface ResponseStore {
  /** The stored response with this id in this project, or null (missing, expired or another project's). */
  get(input: { projectId: string; id: string }): Promise<StoredResponse | null>;
  /** Stores a response; resolves once a read on any instance finds it. */
  put(record: StoredResponse): Promise<void>;
  /** Deletes it; false when there was none in this project. */
  delete(input: { projectId: string; id: string }): Promise<boolean>;
}

/**
 * A {@link ResponseStore} in this process's memory (tests, single-process embedding): entries
 * expire at their `expiresAt`, and at most `maxEntries` are kept (the oldest go first).
 */
export function createMemoryResponseStore(options: { maxEntries?: number; now?: () => number } = {}): ResponseStore {
  const maxEntries = options.maxEntries ?? 10_000;
  const now = options.now ?? Date.now;
  const entries = new Map<string, StoredResponse>();
  const keyOf = (projectId: string, id: string) => `${projectId}\u0000${id}`;
  return {
    async get({ projectId, id }) {
      const key = keyOf(projectId, id);
      const entry = entries.get(key);
      if (entry === undefined) return null;
      if (entry.expiresAt.getTime() <= now()) {
        entries.delete(key);
        return null;
      }
      return structuredClone(entry);
    },
    async put(record) {
      const key = keyOf(record.projectId, record.id);
      entries.delete(key);
      entries.set(key, structuredClone(record));
      while (entries.size > maxEntries) entries.delete(entries.keys().next().value as string);
    },
    async delete({ projectId, id }) {
      return entries.delete(keyOf(projectId, id));
    },
  };
}
