/**
 * Where session affinity is remembered: session key -> qualified target model. Methods may
 * return promises, so a shared store (Redis, in the pipeline) fits the same interface.
 */
export interface AffinityStore {
  /** The remembered target of a session key, or `null`. */
  get(key: string): string | null | Promise<string | null>;
  /** Remembers `target` for `ttlSeconds` (replacing any entry and its TTL). */
  set(key: string, target: string, ttlSeconds: number): void | Promise<void>;
  delete(key: string): void | Promise<void>;
}

/**
 * The affinity key of a session: scoped to the organization, the API key and the alias,
 * so two callers (or two aliases) sending the same session value never share an entry.
 */
export function createAffinityKey(options: { organizationId: string; apiKeyId: string; alias: string; session: string }): string {
  return ["affinity", options.organizationId, options.apiKeyId, options.alias, options.session].map(encodeURIComponent).join(":");
}
