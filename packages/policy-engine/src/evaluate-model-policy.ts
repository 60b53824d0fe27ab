import type { AccessIndex } from "./access-index.js";
import type { AccessCaller, AccessConnection, AccessPolicy, AccessRoute } from "./access-snapshot.js";

/** The rule that decided a model policy question. */
export type PolicyRule =
  | {
      effect: "allow" | "deny";
      policyId: string;
      scope: AccessPolicy["scope"];
      scopeId: string;
      pattern: string;
    }
  | {
      /** No scope had an opinion, but at least one scope has an allow list. */
      effect: "not_in_allow_list";
      policyIds: string[];
    };

/** The outcome of a model policy check; `rule` is `null` when nothing applied (allowed by default). */
export interface PolicyDecision {
  allowed: boolean;
  rule: PolicyRule | null;
}

const allowedByDefault: PolicyDecision = Object.freeze({ allowed: true, rule: null });

/**
 * Decides whether the caller may use `model` (a provider-qualified id or an alias).
 *
 * 1. Scopes are examined from the narrowest to the broadest: key, project, organization.
 * 2. Within a scope (all its policies together) a matching `deny` beats a matching `allow`.
 * 3. The first scope with a matching pattern decides.
 * 4. If no scope matches and any scope has a non-empty `allow` list, the model is denied
 *    (`not_in_allow_list`); otherwise it is allowed.
 */
export function evaluateModelPolicy<TConnection extends AccessConnection, TRoute extends AccessRoute>(
  options: AccessCaller & { index: AccessIndex<TConnection, TRoute>; model: string },
): PolicyDecision {
  const chain = options.index.policyChain(options);
  if (chain.length === 0) return allowedByDefault;
  let allowListPolicyIds: string[] | null = null;
  for (const level of chain) {
    let allowRule: PolicyRule | null = null;
    for (const compiled of level.policies) {
      for (const pattern of compiled.deny) {
        if (pattern.test(options.model)) {
          return {
            allowed: false,
            rule: { effect: "deny", policyId: compiled.policy.id, scope: level.scope, scopeId: level.scopeId, pattern: pattern.pattern },
          };
        }
      }
      if (compiled.allow.length > 0) (allowListPolicyIds ??= []).push(compiled.policy.id);
      if (allowRule === null) {
        for (const pattern of compiled.allow) {
          if (pattern.test(options.model)) {
            allowRule = { effect: "allow", policyId: compiled.policy.id, scope: level.scope, scopeId: level.scopeId, pattern: pattern.pattern };
            break;
          }
        }
      }
    }
    if (allowRule) return { allowed: true, rule: allowRule };
  }
  if (allowListPolicyIds) return { allowed: false, rule: { effect: "not_in_allow_list", policyIds: allowListPolicyIds } };
  return allowedByDefault;
}
