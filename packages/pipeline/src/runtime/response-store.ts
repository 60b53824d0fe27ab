import type { StoredResponse } from "@gateway/contracts";

export type { StoredResponse };

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
