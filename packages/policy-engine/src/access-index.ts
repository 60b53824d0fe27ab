import { LRUCache } from "lru-cache";
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
  /** Unique within its index (names the level in chain keys). */
  id: number;
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

/**
 * The policies that apply to a caller, from the narrowest scope to the broadest (key, project,
 * organization; scopes without policies left out), with what is derived from them alone:
 * compiled guardrails, the model list, resolutions. Every key with the same policies shares one
 * chain, so a new key on a known chain compiles nothing.
 */
export interface PolicyChain {
  /** Unique within its index; names the chain in cache keys. */
  readonly id: number;
  readonly organizationId: string;
  readonly levels: readonly ScopePolicies[];
  /**
   * Artefacts derived from the chain and the snapshot alone (never from the caller's ids), under
   * names their owners choose (`guardrails`, `model-list`, ...): one entry per name.
   */
  readonly artefacts: Map<string, unknown>;
}

/** The policies of one organization, by the scope id they are attached to. */
interface OrganizationPolicies {
  byScope: Record<AccessPolicy["scope"], Map<string, ScopePolicies>>;
  /** (key level id, project level id) -> chain; bounded by the policies, not by the keys. */
  chains: Map<number, PolicyChain>;
}

/**
 * Default bound of {@link AccessIndex.chainCache}: resolutions of the chains in use (the lists
 * and guardrails live on the chains). The LRU preallocates its slots when the index is built
 * (~1 ms at this size, ~4 ms at 65,536), which every reload pays.
 */
export const defaultChainCacheEntries = 16_384;

/** Settings of an {@link AccessIndex}. */
export interface AccessIndexSettings {
  /** Entries kept by {@link AccessIndex.chainCache} over all chains; the least recently used go first. Default 16,384. */
  chainCacheEntries?: number;
  /**
   * The index of the snapshot this one replaces: its compiled policies are reused for the policy
   * rows that are the same objects (a snapshot updated in place keeps unchanged rows), so a
   * change to one policy compiles that policy alone.
   */
  previous?: AccessIndex<AccessConnection, AccessRoute> | null;
}

/** Key and project level ids are below this (2^26), so one number names a pair exactly. */
const levelIdLimit = 67_108_864;

/**
 * Everything the hot path needs, computed once per snapshot: maps by name and alias, compiled
 * globs, validated guardrails, the policy chains callers share and a bounded LRU of what is
 * derived from each chain (safe because an index never changes; a new snapshot version gets a
 * new index).
 */
export class AccessIndex<TConnection extends AccessConnection = AccessConnection, TRoute extends AccessRoute = AccessRoute> {
  readonly version: string;
  /** Policies whose `guardrails` JSON failed validation; callers under them fail closed. */
  readonly configurationErrors: readonly { policyId: string; message: string }[];
  private readonly organizations = new Map<string, OrganizationAccess<TConnection, TRoute>>();
  private readonly policiesByOrganization = new Map<string, OrganizationPolicies>();
  private readonly emptyChains = new Map<string, PolicyChain>();
  private readonly chainEntries: LRUCache<string, object>;
  /** Policy row -> its compilation, for the next index to reuse (see `AccessIndexSettings.previous`). */
  private readonly compiledPolicies = new WeakMap<AccessPolicy, CompiledPolicy>();
  private nextLevelId = 1;
  private nextChainId = 1;

  constructor(snapshot: AccessSnapshot<TConnection, TRoute>, settings: AccessIndexSettings = {}) {
    this.version = snapshot.version;
    this.chainEntries = new LRUCache({ max: Math.max(1, Math.floor(settings.chainCacheEntries ?? defaultChainCacheEntries)) });
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
      const compiled = settings.previous?.compiledPolicies.get(policy) ?? compilePolicy(policy);
      this.compiledPolicies.set(policy, compiled);
      if (compiled.guardrailsError) errors.push({ policyId: policy.id, message: compiled.guardrailsError.message });
      const scopes = this.policiesOf(policy.organizationId).byScope;
      // A scope the engine does not know applies to no one.
      if (!Object.hasOwn(scopes, policy.scope)) continue;
      const byScope = scopes[policy.scope];
      const level = byScope.get(policy.scopeId);
      if (level) (level.policies as CompiledPolicy[]).push(compiled);
      else byScope.set(policy.scopeId, { id: this.nextLevelId++, scope: policy.scope, scopeId: policy.scopeId, policies: [compiled] });
    }
    this.configurationErrors = errors;
    // An organization whose connections and routes are the same rows keeps its lookups (and what
    // is kept with them, such as its model list without policies) from the previous index.
    const previous = settings.previous;
    if (previous) {
      for (const [organizationId, organization] of this.organizations) {
        const before = previous.organizations.get(organizationId) as OrganizationAccess<TConnection, TRoute> | undefined;
        if (before !== undefined && sameRows(before, organization)) this.organizations.set(organizationId, before);
      }
    }
  }

  /** The organizations that have connections or routes. */
  organizationIds(): IterableIterator<string> {
    return this.organizations.keys();
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
    return this.chainOf(caller).levels;
  }

  /**
   * The caller's {@link PolicyChain}: three map look-ups, no allocation once the chain exists.
   * Callers whose key, project and organization carry the same policies get the same object.
   */
  chainOf(caller: AccessCaller): PolicyChain {
    const policies = this.policiesByOrganization.get(caller.organizationId);
    if (policies === undefined) return this.emptyChainOf(caller.organizationId);
    const keyLevel = policies.byScope.key.get(caller.apiKeyId);
    const projectLevel = policies.byScope.project.get(caller.projectId);
    const chainKey = (keyLevel?.id ?? 0) * levelIdLimit + (projectLevel?.id ?? 0);
    let chain = policies.chains.get(chainKey);
    if (chain === undefined) {
      const levels: ScopePolicies[] = [];
      if (keyLevel) levels.push(keyLevel);
      if (projectLevel) levels.push(projectLevel);
      const organizationLevel = policies.byScope.organization.get(caller.organizationId);
      if (organizationLevel) levels.push(organizationLevel);
      chain = { id: this.nextChainId++, organizationId: caller.organizationId, levels, artefacts: new Map() };
      policies.chains.set(chainKey, chain);
    }
    return chain;
  }

  /**
   * A memo of the caller's chain, bounded over all chains by `chainCacheEntries` with least
   * recently used eviction: a burst of new entries evicts the coldest ones, not the hot set.
   * Values must be derived only from the snapshot and the chain (never from the caller's ids).
   */
  chainCache(caller: AccessCaller): ChainCache {
    return new ChainCache(this.chainEntries, this.chainOf(caller));
  }

  private emptyChainOf(organizationId: string): PolicyChain {
    let chain = this.emptyChains.get(organizationId);
    if (chain === undefined) {
      chain = { id: this.nextChainId++, organizationId, levels: [], artefacts: new Map() };
      this.emptyChains.set(organizationId, chain);
    }
    return chain;
  }

  private policiesOf(organizationId: string): OrganizationPolicies {
    let policies = this.policiesByOrganization.get(organizationId);
    if (!policies) {
      policies = { byScope: { key: new Map(), project: new Map(), organization: new Map() }, chains: new Map() };
      this.policiesByOrganization.set(organizationId, policies);
    }
    return policies;
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

/** One chain's view of the index's shared LRU (see {@link AccessIndex.chainCache}). */
export class ChainCache {
  constructor(
    private readonly entries: LRUCache<string, object>,
    /** The chain the entries belong to. */
    readonly chain: PolicyChain,
  ) {}

  get(key: string): unknown {
    return this.entries.get(`${this.chain.id}\u0000${key}`);
  }

  set(key: string, value: object): void {
    this.entries.set(`${this.chain.id}\u0000${key}`, value);
  }
}

/**
 * Compiles one policy: its globs, and its guardrails validated (an invalid configuration is
 * kept as `guardrailsError`: callers under the policy fail closed). Pure: a changed policy is
 * compiled again alone.
 */
export function compilePolicy(policy: AccessPolicy): CompiledPolicy {
  let guardrails: GuardrailsConfig | null = null;
  let guardrailsError: Error | null = null;
  try {
    guardrails = parseGuardrailsConfig(policy.guardrails);
  } catch (error) {
    guardrailsError = error instanceof Error ? error : new Error(String(error));
  }
  return {
    policy,
    allow: policy.allow.map((pattern) => ({ pattern, test: compileGlob(pattern) })),
    deny: policy.deny.map((pattern) => ({ pattern, test: compileGlob(pattern) })),
    guardrails,
    guardrailsError,
  };
}

/** Same enabled connections and routes, row for row (the same objects, in the same order). */
function sameRows(left: OrganizationAccess<AccessConnection, AccessRoute>, right: OrganizationAccess<AccessConnection, AccessRoute>): boolean {
  const sameList = (a: readonly object[], b: readonly object[]) => a.length === b.length && a.every((item, position) => item === b[position]);
  return sameList(left.enabledConnectionList, right.enabledConnectionList) && sameList(left.routeList, right.routeList);
}

const emptyOrganization: OrganizationAccess<never, never> = {
  enabledConnections: new Map<string, never>(),
  enabledConnectionList: [],
  routesByAlias: new Map<string, never>(),
  routeList: [],
};

const indexBySnapshot = new WeakMap<object, AccessIndex<AccessConnection, AccessRoute>>();

/**
 * Precomputes the lookups for a snapshot. Calling it again with the same snapshot object
 * returns the same index, so the pipeline can call it on every request.
 */
export function compileAccessIndex<TConnection extends AccessConnection, TRoute extends AccessRoute>(
  snapshot: AccessSnapshot<TConnection, TRoute>,
  settings?: AccessIndexSettings,
): AccessIndex<TConnection, TRoute> {
  const cached = indexBySnapshot.get(snapshot);
  if (cached && cached.version === snapshot.version) return cached as unknown as AccessIndex<TConnection, TRoute>;
  const index = new AccessIndex(snapshot, settings);
  indexBySnapshot.set(snapshot, index as unknown as AccessIndex<AccessConnection, AccessRoute>);
  return index;
}
