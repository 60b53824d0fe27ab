import { GatewayError } from "@gateway/errors";
import type { AccessIndex, PolicyChain } from "./access-index.js";
import type { AccessCaller, AccessConnection, AccessRoute } from "./access-snapshot.js";
import { compileGuardrails, noGuardrails, type CompiledGuardrails } from "./compile-guardrails.js";
import type { GuardrailsConfig } from "./guardrails-config.js";

/**
 * The guardrails that apply to a caller: the rules of every policy of its organization,
 * project and key, all enforced together (guardrails add up across scopes; they do not
 * override each other). Compiled once per policy chain and snapshot: every key whose scopes
 * carry the same policies gets the same compiled guardrails.
 *
 * If a policy's guardrails JSON is invalid the caller fails closed: every check answers
 * 500 `internal_error` naming the policy (see `AccessIndex.configurationErrors`).
 */
export function guardrailsForCaller<TConnection extends AccessConnection, TRoute extends AccessRoute>(
  options: AccessCaller & { index: AccessIndex<TConnection, TRoute> },
): CompiledGuardrails {
  const chain = options.index.chainOf(options);
  const cached = chain.artefacts.get(artefactName) as CompiledGuardrails | undefined;
  if (cached) return cached;
  const guardrails = compileChainGuardrails(chain);
  chain.artefacts.set(artefactName, guardrails);
  return guardrails;
}

const artefactName = "guardrails";

/** The guardrails of a chain's policies, broadest scope first (rule order decides which block is reported). */
function compileChainGuardrails(chain: PolicyChain): CompiledGuardrails {
  const configs: GuardrailsConfig[] = [];
  let invalidPolicyId: string | null = null;
  for (let level = chain.levels.length - 1; level >= 0; level--) {
    for (const compiled of chain.levels[level]!.policies) {
      if (compiled.guardrailsError) invalidPolicyId ??= compiled.policy.id;
      else if (compiled.guardrails) configs.push(compiled.guardrails);
    }
  }
  return invalidPolicyId !== null ? failClosed(invalidPolicyId) : configs.length === 0 ? noGuardrails : compileGuardrails(configs);
}

function failClosed(policyId: string): CompiledGuardrails {
  const error = () =>
    new GatewayError("internal_error", {
      message: `The guardrails configuration of policy '${policyId}' is invalid; requests under it are refused.`,
      details: { policyId },
    });
  return {
    hasInputRules: true,
    hasOutputRules: true,
    outputHoldbackCharacters: 0,
    checkInput: (texts) => ({ value: [...texts], flags: [], redacted: false, blocked: error() }),
    checkOutput: (text) => ({ value: text, flags: [], redacted: false, blocked: error() }),
    createOutputScanner: () => {
      const blocked = error();
      return { push: () => ({ emit: "", blocked }), flush: () => ({ emit: "", blocked }), flags: [] };
    },
  };
}
