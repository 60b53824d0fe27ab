import type { SnapshotMcpServer } from "@gateway/contracts";
import { GatewayError } from "@gateway/errors";
import { type McpCapabilityKind, evaluateMcpAccess, mcpAccessDeniedError } from "@gateway/policy-engine";
import type { CallRouteInput, CallRouter } from "../call/call-router.js";
import type { CompiledSnapshot } from "../runtime/compile-snapshot.js";
import type { CallerIdentity } from "../stages/authenticate.js";
import type { CallTarget } from "../stages/call-target.js";
import type { RoutePlan } from "../stages/resolve-route.js";
import { parseServedMcpName, parseServedMcpResourceUri } from "./mcp-server-directory.js";
import type { McpListedNames, McpUpstream } from "./mcp-upstream.js";

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
 * The route stage of MCP calls: a served name goes to the MCP server that has it, after the
 * caller's MCP token and policies (see {@link resolveMcpCallTarget}); a tool or prompt the server
 * did not list is refused without calling it (see `assertListed`). One target, one attempt; the
 * target is no provider connection, so `invoke` gets no adapter.
 */
export function createMcpCallRouter(upstream: McpUpstream): CallRouter<McpCallRequest, McpCallTarget> {
  return new McpCallRouter(upstream);
}

class McpCallRouter implements CallRouter<McpCallRequest, McpCallTarget> {
  readonly recordsLatency = false;

  constructor(private readonly upstream: McpUpstream) {}

  async route(input: CallRouteInput<McpCallRequest>): Promise<RoutePlan<McpCallTarget>> {
    const target = resolveMcpCallTarget(input);
    if (target.kind !== "resource") await assertListed(this.upstream, target, input.request.name);
    return { requestedModel: input.request.name, route: null, targets: [target], maxAttemptsPerTarget: 1, affinityKey: null };
  }

  adapterFor(): null {
    return null;
  }
}
