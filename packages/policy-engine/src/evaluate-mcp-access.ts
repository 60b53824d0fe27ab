import { GatewayError } from "@gateway/errors";
import type { AccessIndex } from "./access-index.js";
import type { AccessCaller, AccessConnection, AccessRoute } from "./access-snapshot.js";
import { type PolicyDecision, evaluateModelPolicy } from "./evaluate-model-policy.js";
import { type McpCapabilityKind, mcpPolicySubject } from "./mcp-policy-subject.js";

/** Options of {@link evaluateMcpAccess}. */
export interface EvaluateMcpAccessOptions<TConnection extends AccessConnection, TRoute extends AccessRoute> extends AccessCaller {
  index: AccessIndex<TConnection, TRoute>;
  /** The MCP server's name in the caller's organization. */
  server: string;
  kind: McpCapabilityKind;
  /** The tool or prompt name, or the resource URI, as the server names it. */
  name: string;
}

/**
 * Whether the caller may use a tool, prompt or resource of an MCP server: the same resolver and
 * precedence as models (key, project, organization; deny beats allow within a scope; an allow
 * list elsewhere denies what it does not name), over {@link mcpPolicySubject}.
 */
export function evaluateMcpAccess<TConnection extends AccessConnection, TRoute extends AccessRoute>(
  options: EvaluateMcpAccessOptions<TConnection, TRoute>,
): PolicyDecision {
  return evaluateModelPolicy({
    index: options.index,
    organizationId: options.organizationId,
    projectId: options.projectId,
    apiKeyId: options.apiKeyId,
    model: mcpPolicySubject(options),
  });
}

/** 403 `tool_not_allowed` for a denied MCP subject, naming the subject and the deciding rule. */
export function mcpAccessDeniedError(options: { server: string; kind: McpCapabilityKind; name: string; decision: PolicyDecision }): GatewayError {
  const subject = mcpPolicySubject(options);
  return new GatewayError("tool_not_allowed", {
    message: `A policy does not allow '${subject}'.`,
    details: { subject, rule: options.decision.rule },
  });
}
