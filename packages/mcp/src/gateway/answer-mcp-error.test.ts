import { GatewayError } from "@gateway/errors";
import { ProtocolError } from "@modelcontextprotocol/server";
import { describe, expect, it } from "vitest";
import { answerMcpError } from "./answer-mcp-error.js";

const tool = { request: { kind: "tool" as const, name: "tickets__create_issue", arguments: {} }, requestId: "req_1" };
const prompt = { request: { kind: "prompt" as const, name: "docs__summarize", arguments: {} }, requestId: "req_2" };

const thrownBy = (run: () => unknown): ProtocolError => {
  try {
    run();
  } catch (error) {
    if (ProtocolError.isInstance(error)) return error;
    throw error;
  }
  throw new Error("expected a ProtocolError");
};

describe("answerMcpError", () => {
  it("answers refusals a model can act on as tool results with isError", () => {
    const refusals = [
      new GatewayError("mcp_authorization_failed", { message: "The MCP server 'tickets' needs to be authorized again in the dashboard." }),
      new GatewayError("guardrail_blocked", { message: "A guardrail blocked this request." }),
      new GatewayError("gateway_rate_limit_exceeded", { message: "Rate limit exceeded.", retryAfter: 3 }),
    ];
    expect(refusals.map((error) => answerMcpError(error, tool))).toEqual([
      { content: [{ type: "text", text: "The MCP server 'tickets' needs to be authorized again in the dashboard." }], isError: true },
      { content: [{ type: "text", text: "A guardrail blocked this request." }], isError: true },
      { content: [{ type: "text", text: "Rate limit exceeded. Retry after 3 s." }], isError: true },
    ]);
  });

  it("answers unknown and denied tools, and invalid arguments, with -32602 naming the gateway code and request id", () => {
    expect(thrownBy(() => answerMcpError(new GatewayError("tool_not_found", { message: "Unknown tool: x" }), tool))).toMatchObject({ code: -32602, message: "Unknown tool: x", data: { code: "tool_not_found", request_id: "req_1" } });
    expect(thrownBy(() => answerMcpError(new GatewayError("tool_not_allowed", { details: { subject: "mcp:a/b" } }), tool)).data).toMatchObject({ code: "tool_not_allowed", subject: "mcp:a/b" });
    expect(thrownBy(() => answerMcpError(new GatewayError("invalid_request", { param: "arguments.topic" }), prompt)).data).toMatchObject({ param: "arguments.topic" });
  });

  it("relays the server's own invalid-params and application errors, and turns its reserved codes and failures into -32603", () => {
    const upstream = (code: number) => new GatewayError("upstream_error", { message: "The MCP server 'docs' answered an error: nope", details: { server: "docs", jsonrpc_error: { code, message: "nope", data: { why: 1 } } } });
    expect(thrownBy(() => answerMcpError(upstream(-32602), tool))).toMatchObject({ code: -32602, message: "nope", data: { upstream_data: { why: 1 } } });
    expect(thrownBy(() => answerMcpError(upstream(4001), tool))).toMatchObject({ code: 4001, message: "nope" });
    expect(thrownBy(() => answerMcpError(upstream(-32020), tool))).toMatchObject({ code: -32603, data: { code: "upstream_error", server: "docs" } });
    expect(thrownBy(() => answerMcpError(new GatewayError("upstream_timeout", { details: { server: "docs" } }), tool))).toMatchObject({ code: -32603, data: { code: "upstream_timeout" } });
    // Prompts have no execution errors: a failed grant is a JSON-RPC error too.
    expect(thrownBy(() => answerMcpError(new GatewayError("mcp_authorization_failed"), prompt)).code).toBe(-32603);
    // Internals never leak.
    expect(thrownBy(() => answerMcpError(new Error("database password in stack"), tool))).toMatchObject({ code: -32603, message: "Internal error." });
  });
});
