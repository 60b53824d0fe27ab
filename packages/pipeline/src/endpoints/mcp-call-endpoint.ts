import { GatewayError, fromZodError } from "@gateway/errors";
import { mcpResultsFormat } from "@gateway/provider-adapters";
import { z } from "zod";
import type { InferenceEndpoint } from "../call/inference-endpoint.js";
import { applyAnswerGuardrails } from "../stages/apply-answer-guardrails.js";
import { jsonSizeExceeds } from "../mcp/json-size-exceeds.js";
import { type McpCallRequest, type McpCallTarget, createMcpCallRouter } from "../mcp/mcp-call-router.js";
import type { McpUpstream } from "../mcp/mcp-upstream.js";

export type { McpCallRequest, McpCallTarget } from "../mcp/mcp-call-router.js";

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
 * The MCP endpoint's calls (tools/call, prompts/get, resources/read) as an endpoint spec of the
 * one call skeleton: the caller authenticated by the MCP layer (`input.identity`), the call routed
 * to the server that has the name by its router ({@link createMcpCallRouter}: after the caller's
 * MCP token and policies; a tool or prompt the server did not list is refused there),
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
    router: createMcpCallRouter(options.upstream),
    admission: () => ({ estimatedCostMicros: 0, estimatedTokens: 0 }),
    async invoke({ request, target, context }) {
      const result = await options.upstream.call({
        server: target.server,
        kind: target.kind,
        name: target.upstreamModel,
        arguments: request.arguments,
        signal: context.abort.signal,
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
