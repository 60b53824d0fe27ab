import { type CompiledGuardrails, applyInputGuardrails, guardrailsForCaller } from "@gateway/policy-engine";
import { type RequestFormat, formatOfRequest } from "@gateway/provider-adapters";
import type { CallerIdentity } from "./authenticate.js";
import type { CompiledSnapshot } from "../runtime/compile-snapshot.js";

/**
 * The input-guardrail stage for any request format: runs the caller's guardrails (all of
 * its organization, project and key policies) over the texts of the body. Throws 403
 * `guardrail_blocked` for a blocking rule; returns the body to forward (redacted when a
 * redact rule matched) and the names of flagging rules for the usage event. A caller that has
 * already resolved its guardrails (for output checks too) passes them in `guardrails`.
 */
export function applyCallerGuardrails<Body>(input: {
  snapshot: CompiledSnapshot;
  identity: CallerIdentity;
  body: Body;
  format: RequestFormat;
  guardrails?: CompiledGuardrails;
}): { body: Body; flags: string[] } {
  const guardrails =
    input.guardrails ??
    guardrailsForCaller({
      index: input.snapshot.access,
      organizationId: input.identity.organization.id,
      projectId: input.identity.project.id,
      apiKeyId: input.identity.apiKey.id,
    });
  if (!guardrails.hasInputRules) return { body: input.body, flags: [] };
  const result = applyInputGuardrails({ guardrails, body: input.body, format: formatOfRequest[input.format] });
  if (result.blocked) throw result.blocked;
  return { body: result.body, flags: result.flags };
}

