import type { AccessCaller, AccessConnection, AccessPolicy, AccessRoute, AccessSnapshot } from "./access-snapshot.js";
import { compileGlob } from "./glob-pattern.js";
import { parseGuardrailsConfig, type GuardrailsConfig } from "./guardrails-config.js";

/** A glob compiled once per snapshot. */
export interface CompiledPattern {
  pattern: string;
  test: (value: string) => boolean;
}

/** A policy with its globs compiled and its guardrails validated. */
export interface CompiledPolicy {
  policy: AccessPolicy;
  allow: readonly CompiledPattern[];
  deny: readonly CompiledPattern[];
  /** Parsed guardrails, `null` when the policy has none. */
  guardrails: GuardrailsConfig | null;
  /** Set when the policy's `guardrails` JSON is invalid (requests under it fail closed). */
  guardrailsError: Error | null;
}

/** Policies of one scope level that apply to a caller (several rows of one scope are merged). */
export interface ScopePolicies {
  scope: AccessPolicy["scope"];
  scopeId: string;
  policies: readonly CompiledPolicy[];
}

/** Per-organization lookups. */
export interface OrganizationAccess<TConnection extends AccessConnection, TRoute extends AccessRoute> {
  /** Enabled connections only, by name, with their served ids as a set. */
  enabledConnections: ReadonlyMap<string, { connection: TConnection; models: ReadonlySet<string> }>;
  /** Enabled connections in snapshot order (for the model list). */
  enabledConnectionList: readonly TConnection[];
  routesByAlias: ReadonlyMap<string, TRoute>;
  routeList: readonly TRoute[];
}

const cacheLimit = 4096;

/**
 * Everything the hot path needs, computed once per snapshot: maps by name and alias, compiled
 * globs, validated guardrails, plus bounded per-caller caches (safe because an index never
 * changes; a new snapshot version gets a new index).
 */
export class AccessIndex<TConnection extends AccessConnection = AccessConnection, TRoute extends AccessRoute = AccessRoute> {
  readonly version: string;
  /** Policies whose `guardrails` JSON failed validation; callers under them fail closed. */
  readonly configurationErrors: readonly { policyId: string; message: string }[];
  private readonly organizations = new Map<string, OrganizationAccess<TConnection, TRoute>>();
  private readonly policiesByScope = new Map<string, CompiledPolicy[]>();
  private readonly chainCache = new Map<string, readonly ScopePolicies[]>();
  /** Free-form per-caller caches used by the resolver, model list and guardrails. */
  private readonly callerCaches = new Map<string, Map<string, unknown>>();

  constructor(snapshot: AccessSnapshot<TConnection, TRoute>) {
    this.version = snapshot.version;
    const errors: { policyId: string; message: string }[] = [];
    for (const connection of snapshot.connections) {
      const organization = this.organizationFor(connection.organizationId);
      if (!connection.enabled) continue;
      (organization.enabledConnections as Map<string, { connection: TConnection; models: ReadonlySet<string> }>).set(
        connection.name,
        { connection, models: new Set(connection.models) },
      );
      (organization.enabledConnectionList as TConnection[]).push(connection);
    }
    for (const route of snapshot.routes) {
      const organization = this.organizationFor(route.organizationId);
      (organization.routesByAlias as Map<string, TRoute>).set(route.alias, route);
      (organization.routeList as TRoute[]).push(route);
    }
    for (const policy of snapshot.policies) {
      let guardrails: GuardrailsConfig | null = null;
      let guardrailsError: Error | null = null;
      try {
        guardrails = parseGuardrailsConfig(policy.guardrails);
      } catch (error) {
        guardrailsError = error instanceof Error ? error : new Error(String(error));
        errors.push({ policyId: policy.id, message: guardrailsError.message });
      }
      const compiled: CompiledPolicy = {
        policy,
        allow: policy.allow.map((pattern) => ({ pattern, test: compileGlob(pattern) })),
        deny: policy.deny.map((pattern) => ({ pattern, test: compileGlob(pattern) })),
        guardrails,
        guardrailsError,
      };
      const key = scopeKey(policy.organizationId, policy.scope, policy.scopeId);
      const list = this.policiesByScope.get(key);
      if (list) list.push(compiled);
      else this.policiesByScope.set(key, [compiled]);
    }
    this.configurationErrors = errors;
  }

  /** Lookups of one organization (empty when it has no connections or routes). */
  organization(organizationId: string): OrganizationAccess<TConnection, TRoute> {
    return this.organizations.get(organizationId) ?? emptyOrganization;
  }

  /**
   * The caller's policies from the narrowest scope to the broadest: key, project,
   * organization. Scopes without policies are left out.
   */
  policyChain(caller: AccessCaller): readonly ScopePolicies[] {
    const key = callerKey(caller);
    const cached = this.chainCache.get(key);
    if (cached) return cached;
    const chain: ScopePolicies[] = [];
    const levels: [AccessPolicy["scope"], string][] = [
      ["key", caller.apiKeyId],
      ["project", caller.projectId],
      ["organization", caller.organizationId],
    ];
    for (const [scope, scopeId] of levels) {
      const policies = this.policiesByScope.get(scopeKey(caller.organizationId, scope, scopeId));
      if (policies && policies.length > 0) chain.push({ scope, scopeId, policies });
    }
    boundedSet(this.chainCache, key, chain);
    return chain;
  }

  /** A per-caller memo map (bounded); values must be derived only from the snapshot. */
  callerCache(caller: AccessCaller): Map<string, unknown> {
    const key = callerKey(caller);
    let cache = this.callerCaches.get(key);
    if (!cache) {
      cache = new Map();
      boundedSet(this.callerCaches, key, cache);
    }
    if (cache.size >= cacheLimit) cache.clear();
    return cache;
  }

  private organizationFor(organizationId: string): OrganizationAccess<TConnection, TRoute> {
    let organization = this.organizations.get(organizationId);
    if (!organization) {
      organization = { enabledConnections: new Map(), enabledConnectionList: [], routesByAlias: new Map(), routeList: [] };
      this.organizations.set(organizationId, organization);
    }
    return organization;
  }
}

const emptyOrganization: OrganizationAccess<never, never> = {
  enabledConnections: new Map<string, never>(),
  enabledConnectionList: [],
  routesByAlias: new Map<string, never>(),
  routeList: [],
};

function scopeKey(organizationId: string, scope: string, scopeId: string): string {
  return `${organizationId}\u0000${scope}\u0000${scopeId}`;
}

function callerKey(caller: AccessCaller): string {
  return `${caller.organizationId}\u0000${caller.projectId}\u0000${caller.apiKeyId}`;
}

function boundedSet<T>(map: Map<string, T>, key: string, value: T): void {
  if (map.size >= cacheLimit) map.clear();
  map.set(key, value);
}

const indexBySnapshot = new WeakMap<object, AccessIndex<AccessConnection, AccessRoute>>();

/**
 * Precomputes the lookups for a snapshot. Calling it again with the same snapshot object
 * returns the same index, so the pipeline can call it on every request.
 */
export function compileAccessIndex<TConnection extends AccessConnection, TRoute extends AccessRoute>(
  snapshot: AccessSnapshot<TConnection, TRoute>,
): AccessIndex<TConnection, TRoute> {
  const cached = indexBySnapshot.get(snapshot);
  if (cached && cached.version === snapshot.version) return cached as unknown as AccessIndex<TConnection, TRoute>;
  const index = new AccessIndex(snapshot);
  indexBySnapshot.set(snapshot, index as unknown as AccessIndex<AccessConnection, AccessRoute>);
  return index;
}
