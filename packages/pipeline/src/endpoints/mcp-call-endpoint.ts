import type { SnapshotMcpServer } from "@gateway/contracts";
import { GatewayError, fromZodError } from "@gateway/errors";
import { type McpCapabilityKind, evaluateMcpAccess, mcpAccessDeniedError } from "@gateway/policy-engine";
import { mcpResultsFormat } from "@gateway/provider-adapters";
import { z } from "zod";
import type { InferenceEndpoint } from "../call/inference-endpoint.js";
import { applyAnswerGuardrails } from "../stages/apply-answer-guardrails.js";
import { jsonSizeExceeds } from "../mcp/json-size-exceeds.js";
import { parseServedMcpName, parseServedMcpResourceUri } from "../mcp/mcp-server-directory.js";
import type { McpListedNames, McpUpstream } from "../mcp/mcp-upstream.js";
import type { CompiledSnapshot } from "../runtime/compile-snapshot.js";
import type { CallerIdentity } from "../stages/authenticate.js";
import type { CallTarget } from "../stages/call-target.js";

/** One MCP call as the gateway's MCP server hands it to the pipeline. */
export interface McpCallRequest {
  /** `tool`: tools/call; `prompt`: prompts/get; `resource`: resources/read. */
  kind: McpCapabilityKind;
  /** The name the client used: `<server>__<tool>`, `<server>__<prompt>`, or an `mcp-gateway://` resource URI. */
  name: string;
  /** Tool or prompt arguments. */
  arguments: Record<string, unknown>;
}

/**
 * Where an MCP call goes: the server (the usage event's `provider`) and what it is asked for
 * (`qualifiedModel` `<server>/<tool>`, `<server>/prompts/<prompt>` or `<server>/resources/<uri>`,
 * so the usage event's `model` reads `create_issue`, `prompts/triage` or `resources/<uri>`).
 */
export interface McpCallTarget extends CallTarget {
  server: SnapshotMcpServer;
  kind: McpCapabilityKind;
  /** The tool's or prompt's name, or the resource's URI, as the server knows it. */
  upstreamModel: string;
}

/**
 * Default largest result of one MCP call the gateway relays (`GATEWAY_MCP_RESULT_LIMIT_BYTES`):
 * 4 MiB of JSON text. The answer is written whole to the caller; a caller that reads slowly
 * holds it in memory meanwhile, so it is bounded. Tool results that large are rare (a model's
 * context is smaller); a larger result is refused with a JSON-RPC error naming the limit.
 */
export const defaultMcpResultLimitBytes = 4 * 1024 * 1024;

const mcpCallRequestSchema = z.object({
  kind: z.enum(["tool", "prompt", "resource"]),
  name: z.string().min(1).max(4096),
  arguments: z.record(z.string(), z.unknown()).default({}),
});

/**
 * Whether the gateway can call a server: it has what its authentication needs (a stored bearer
 * token or OAuth grant; nothing for `none`).
 */
export function isMcpServerUsable(server: SnapshotMcpServer): boolean {
  return server.authKind === "none" || server.accessToken !== null;
}

/**
 * The MCP server and the name on it that a served name stands for, for this caller: 404
 * `tool_not_found` when no server of the caller's organization has that prefix or the caller's
 * MCP token is narrowed to another server; 403 `tool_not_allowed` when a policy denies it; 424
 * `mcp_authorization_failed` when the server holds no credential (never authorized, or its
 * grant was revoked).
 */
export function resolveMcpCallTarget(input: { snapshot: CompiledSnapshot; identity: CallerIdentity; request: McpCallRequest }): McpCallTarget {
  const { snapshot, identity, request } = input;
  const parsed = request.kind === "resource" ? parseServedMcpResourceUri(request.name) : parseServedMcpName(request.name);
  const directory = snapshot.mcpServersByOrganization.get(identity.organization.id);
  const server = parsed === null ? undefined : directory?.byPrefix.get(parsed.prefix);
  const narrowedTo = identity.mcpToken?.serverId ?? null;
  if (parsed === null || server === undefined || (narrowedTo !== null && server.id !== narrowedTo)) {
    const what = request.kind === "resource" ? "resource" : request.kind;
    throw new GatewayError("tool_not_found", { message: `Unknown ${what}: ${request.name}`, details: { name: request.name, kind: request.kind } });
  }
  const name = "uri" in parsed ? parsed.uri : parsed.name;
  const decision = evaluateMcpAccess({
    index: snapshot.access,
    organizationId: identity.organization.id,
    projectId: identity.project.id,
    apiKeyId: identity.apiKey.id,
    server: server.name,
    kind: request.kind,
    name,
  });
  if (!decision.allowed) throw mcpAccessDeniedError({ server: server.name, kind: request.kind, name, decision });
  if (!isMcpServerUsable(server)) {
    throw new GatewayError("mcp_authorization_failed", {
      message: `The MCP server '${server.name}' is not authorized: connect it in the dashboard.`,
      details: { server: server.name, server_id: server.id },
    });
  }
  const path = request.kind === "tool" ? name : `${request.kind === "prompt" ? "prompts" : "resources"}/${name}`;
  return { connection: { id: server.id, name: server.name }, qualifiedModel: `${server.name}/${path}`, upstreamModel: name, server, kind: request.kind };
}

/**
 * Refuses a tool or prompt the server did not list (404 `tool_not_found`, as for an unknown
 * server) before the server is called. The catalog is the one the lists are served from (cached
 * for the upstream's catalog lifetime, so a name a client could have seen is known); when the
 * server cannot be listed the call goes ahead, and its own answer tells what happened.
 * Resources are not checked: a resource URI may come from a template.
 */
async function assertListed(upstream: McpUpstream, target: McpCallTarget, servedName: string): Promise<void> {
  if (upstream.catalog === undefined) return;
  let listed: McpListedNames;
  try {
    listed = await upstream.catalog(target.server);
  } catch {
    return;
  }
  const names = target.kind === "tool" ? listed.tools : listed.prompts;
  if (names.some((entry) => entry.name === target.upstreamModel)) return;
  throw new GatewayError("tool_not_found", {
    message: `Unknown ${target.kind}: ${servedName}`,
    details: { name: servedName, kind: target.kind, server: target.server.name },
  });
}

/**
 * The MCP endpoint's calls (tools/call, prompts/get, resources/read) as an endpoint spec of the
 * one call skeleton: the caller authenticated by the MCP layer (`input.identity`), the call routed
 * to the server that has the name (its own `route`, after the caller's MCP token and policies;
 * a tool or prompt the server did not list is refused there, see `assertListed`),
 * input guardrails over the arguments (`mcp_call`), admission (rate limits and concurrency; an MCP
 * call costs nothing, so it reserves nothing), one upstream call bounded by the upstream's own
 * timeout, output guardrails over the result's texts, and one usage event (`endpoint: "mcp"`,
 * `provider` the server, `model` the tool; arguments and result captured only when the project
 * captures content). A result longer than `maxResultBytes` of JSON text (default
 * {@link defaultMcpResultLimitBytes}) is refused: `upstream_error` (502) naming the limit.
 * Errors are thrown (`throwErrors`): the MCP layer answers them in JSON-RPC.
 */
export function createMcpCallEndpoint(options: { upstream: McpUpstream; maxResultBytes?: number }): InferenceEndpoint<McpCallRequest, McpCallTarget> {
  const maxResultBytes = options.maxResultBytes ?? defaultMcpResultLimitBytes;
  return {
    name: "mcp",
    errorFormat: "gateway",
    capturesContent: true,
    guardrailFormat: "mcp_call",
    parse(body) {
      const result = mcpCallRequestSchema.safeParse(body);
      if (!result.success) throw fromZodError(result.error);
      return result.data;
    },
    model: (request) => request.name,
    async route(input) {
      const target = resolveMcpCallTarget(input);
      if (target.kind !== "resource") await assertListed(options.upstream, target, input.request.name);
      return { requestedModel: input.request.name, route: null, targets: [target], maxAttemptsPerTarget: 1, affinityKey: null };
    },
    admission: () => ({ estimatedCostMicros: 0, estimatedTokens: 0 }),
    async invoke({ request, target, context }) {
      const result = await options.upstream.call({
        server: target.server,
        kind: target.kind,
        name: target.upstreamModel,
        arguments: request.arguments,
        signal: context.signal,
        deadline: context.deadline,
        requestId: context.requestId,
      });
      if (jsonSizeExceeds(result, maxResultBytes)) {
        throw new GatewayError("upstream_error", {
          message: `The MCP server '${target.server.name}' returned a result larger than the gateway relays (${maxResultBytes} bytes of JSON; GATEWAY_MCP_RESULT_LIMIT_BYTES).`,
          details: { server: target.server.name, limit_bytes: maxResultBytes },
        });
      }
      return { kind: "json", status: 200, body: result, usage: null };
    },
    guardOutput: (body, guardrails) => applyAnswerGuardrails(guardrails, body, mcpResultsFormat),
  };
}
