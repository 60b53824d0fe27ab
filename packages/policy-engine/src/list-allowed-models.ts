import type { AccessIndex, OrganizationAccess, PolicyChain, ScopePolicies } from "./access-index.js";
import type { AccessCaller, AccessConnection, AccessRoute } from "./access-snapshot.js";
import { evaluateModelPolicy, type PolicyDecision } from "./evaluate-model-policy.js";
import { isModelUsable, type ResolvedRouteTarget } from "./resolve-model.js";

/** One entry of the caller's model list. */
export type AllowedModel<TConnection extends AccessConnection = AccessConnection, TRoute extends AccessRoute = AccessRoute> =
  | { id: string; kind: "model"; connection: TConnection }
  /** `targets`: the alias's usable targets for this caller (as `resolveModel` resolves them). */
  | { id: string; kind: "alias"; route: TRoute; targets: readonly ResolvedRouteTarget<TConnection>[] };

/**
 * Exactly the models the caller may use: the provider-qualified ids of every enabled
 * connection's served models, then the organization's aliases, each kept only if
 * `resolveModel` accepts it (the same code path that enforces access). Computed once per policy
 * chain: keys whose scopes carry the same policies share the list. A chain whose policies match
 * none of the organization's model names and carry no allow list gets the organization's list
 * without policies (one frozen array, built when the snapshot is compiled:
 * {@link listModelsWithoutPolicies}), so its first listing tests its patterns and nothing more.
 */
export function listAllowedModels<TConnection extends AccessConnection, TRoute extends AccessRoute>(
  options: AccessCaller & { index: AccessIndex<TConnection, TRoute> },
): readonly AllowedModel<TConnection, TRoute>[] {
  // Derived from the chain and the organization's connections and routes only: one list per chain.
  const chain = options.index.chainOf(options);
  const cached = chain.artefacts.get(artefactName) as readonly AllowedModel<TConnection, TRoute>[] | undefined;
  if (cached) return cached;
  const unrestricted = unrestrictedListOf(options.index, options.organizationId);
  const list = restricts(chain, unrestricted.names) ? restrictedList(options, unrestricted.models) : unrestricted.models;
  chain.artefacts.set(artefactName, list);
  return list;
}

/**
 * The model list of a chain without policies in the organization (what {@link listAllowedModels}
 * gives every chain whose policies change nothing): built once and kept with the organization's
 * lookups, which an index built with `previous` reuses while its connections and routes are
 * unchanged. Compiling a snapshot calls it for every organization.
 */
export function listModelsWithoutPolicies<TConnection extends AccessConnection, TRoute extends AccessRoute>(
  index: AccessIndex<TConnection, TRoute>,
  organizationId: string,
): readonly AllowedModel<TConnection, TRoute>[] {
  return unrestrictedListOf(index, organizationId).models;
}

/** The list without policies of an organization, and every name a policy is asked about while listing. */
interface UnrestrictedList<TConnection extends AccessConnection, TRoute extends AccessRoute> {
  models: readonly AllowedModel<TConnection, TRoute>[];
  names: readonly string[];
}

const unrestrictedLists = new WeakMap<OrganizationAccess<AccessConnection, AccessRoute>, UnrestrictedList<AccessConnection, AccessRoute>>();

function unrestrictedListOf<TConnection extends AccessConnection, TRoute extends AccessRoute>(
  index: AccessIndex<TConnection, TRoute>,
  organizationId: string,
): UnrestrictedList<TConnection, TRoute> {
  const organization = index.organization(organizationId);
  const known = unrestrictedLists.get(organization) as UnrestrictedList<TConnection, TRoute> | undefined;
  if (known !== undefined) return known;
  // Every name the listing asks a policy about: served models, aliases, the aliases' targets.
  const names = new Set<string>();
  for (const connection of organization.enabledConnectionList) for (const served of connection.models) names.add(`${connection.name}/${served}`);
  for (const route of organization.routeList) {
    names.add(route.alias);
    for (const target of route.targets) names.add(target.model);
  }
  const allowed = new Map<string, PolicyDecision>();
  for (const name of names) allowed.set(name, allowedWithoutPolicy);
  const caller = { index, organizationId, projectId: "", apiKeyId: "" };
  const list: UnrestrictedList<TConnection, TRoute> = { models: listModels(caller, organization, allowed), names: [...names] };
  unrestrictedLists.set(organization, list as unknown as UnrestrictedList<AccessConnection, AccessRoute>);
  return list;
}

const allowedWithoutPolicy: PolicyDecision = Object.freeze({ allowed: true, rule: null });

/** Whether a level of the chain can change a verdict on `names`: an allow list, or a pattern that matches one of them. */
function restricts(chain: PolicyChain, names: readonly string[]): boolean {
  for (const level of chain.levels) {
    let verdict = levelRestricts.get(level);
    if (verdict === undefined) {
      verdict = level.policies.some((compiled) => compiled.allow.length > 0 || compiled.deny.some((pattern) => names.some((name) => pattern.test(name))));
      levelRestricts.set(level, verdict);
    }
    if (verdict) return true;
  }
  return false;
}

/** Per level of an index (a level belongs to one organization, and so to one set of names). */
const levelRestricts = new WeakMap<ScopePolicies, boolean>();

/**
 * A restricting chain's list, derived from the organization's list without policies: the same
 * entries in the same order, each model and alias kept when the chain allows its name, an
 * alias's targets narrowed to those the chain allows (dropped when none is left). What
 * `resolveModel` answers, without resolving anything again: one policy decision per distinct name.
 */
function restrictedList<TConnection extends AccessConnection, TRoute extends AccessRoute>(
  options: AccessCaller & { index: AccessIndex<TConnection, TRoute> },
  unrestricted: readonly AllowedModel<TConnection, TRoute>[],
): readonly AllowedModel<TConnection, TRoute>[] {
  const decisions = new Map<string, boolean>();
  const allows = (model: string): boolean => {
    let allowed = decisions.get(model);
    if (allowed === undefined) {
      allowed = evaluateModelPolicy({ index: options.index, organizationId: options.organizationId, projectId: options.projectId, apiKeyId: options.apiKeyId, model }).allowed;
      decisions.set(model, allowed);
    }
    return allowed;
  };
  const models: AllowedModel<TConnection, TRoute>[] = [];
  for (const entry of unrestricted) {
    if (!allows(entry.id)) continue;
    if (entry.kind === "model") {
      models.push(entry);
      continue;
    }
    const targets = entry.targets.filter((target) => allows(target.qualifiedModel));
    if (targets.length === entry.targets.length) models.push(entry);
    else if (targets.length > 0) models.push({ ...entry, targets: Object.freeze(targets) });
  }
  return Object.freeze(models);
}

/** The listing itself; `decisions` remembers the policy decisions of one listing (many aliases share targets). */
function listModels<TConnection extends AccessConnection, TRoute extends AccessRoute>(
  options: AccessCaller & { index: AccessIndex<TConnection, TRoute> },
  organization: OrganizationAccess<TConnection, TRoute>,
  decisions: Map<string, PolicyDecision>,
): readonly AllowedModel<TConnection, TRoute>[] {
  const caller: AccessCaller = { organizationId: options.organizationId, projectId: options.projectId, apiKeyId: options.apiKeyId };
  const models: AllowedModel<TConnection, TRoute>[] = [];
  const seen = new Set<string>();
  for (const connection of organization.enabledConnectionList) {
    for (const served of connection.models) {
      const id = `${connection.name}/${served}`;
      if (seen.has(id)) continue;
      seen.add(id);
      const resolution = isModelUsable({ ...caller, index: options.index, requestedModel: id }, decisions);
      if (resolution?.kind === "target") models.push({ id, kind: "model", connection: resolution.target.connection });
    }
  }
  for (const route of organization.routeList) {
    if (seen.has(route.alias)) continue;
    seen.add(route.alias);
    const resolution = isModelUsable({ ...caller, index: options.index, requestedModel: route.alias }, decisions);
    if (resolution?.kind === "route") models.push({ id: route.alias, kind: "alias", route: resolution.route, targets: resolution.targets });
  }
  return Object.freeze(models);
}

const artefactName = "model-list";
