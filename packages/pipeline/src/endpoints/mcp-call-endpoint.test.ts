import { createAdmissionController, createMemoryStore } from "@gateway/budget";
import type { SnapshotMcpServer, UsageEventRecord } from "@gateway/contracts";
import { GatewayError } from "@gateway/errors";
import { createHttpTransport } from "@gateway/provider-adapters";
import { afterAll, describe, expect, it, vi } from "vitest";
import { createTestSnapshot, testApiKey } from "../__fixtures__/create-test-snapshot.js";
import type { PipelineDependencies } from "../call/pipeline-dependencies.js";
import { runInferenceCall } from "../call/run-inference-call.js";
import { authenticateMcpCaller } from "../mcp/authenticate-mcp-caller.js";
import { compileMcpServerDirectory, parseServedMcpName, parseServedMcpResourceUri, servedMcpResourceTemplate, servedMcpResourceUri } from "../mcp/mcp-server-directory.js";
import type { McpListedNames, McpUpstreamCall } from "../mcp/mcp-upstream.js";
import { createAdapterRegistry } from "../runtime/adapter-registry.js";
import { compileSnapshot } from "../runtime/compile-snapshot.js";
import { hashGatewayApiKey } from "../stages/authenticate.js";
import { createMcpCallEndpoint, type McpCallRequest } from "./mcp-call-endpoint.js";

const transport = createHttpTransport();
afterAll(() => transport.close());

const server = (fields: Partial<SnapshotMcpServer> & Pick<SnapshotMcpServer, "id" | "name">): SnapshotMcpServer => ({
  organizationId: "org_1",
  url: "http://127.0.0.1:9/mcp",
  transport: "streamable_http",
  authKind: "bearer",
  status: "connected",
  accessToken: "upstream-token",
  accessTokenExpiresAt: null,
  ...fields,
});
const narrowedToken = "gmt_narrowed_0123456789abcdefghijk";
const openToken = "gmt_open_0123456789abcdefghijklmno";

function createHarness(
  options: {
    captureContent?: boolean;
    guardrails?: unknown;
    deny?: string[];
    requestsPerMinute?: number;
    answer?: (call: McpUpstreamCall) => Promise<unknown>;
    catalog?: (server: SnapshotMcpServer) => Promise<McpListedNames>;
  } = {},
) {
  const events: UsageEventRecord[] = [];
  const calls: McpUpstreamCall[] = [];
  const base = createTestSnapshot();
  const snapshot = compileSnapshot(
    createTestSnapshot({
      projects: [{ ...base.projects[0]!, captureContent: options.captureContent ?? false }],
      mcpServers: [server({ id: "srv_tickets", name: "tickets" }), server({ id: "srv_docs", name: "docs", authKind: "oauth", accessToken: null })],
      mcpTokens: [
        { id: "mt_1", organizationId: "org_1", apiKeyId: "key_1", serverId: "srv_docs", userId: "usr_1", tokenHash: hashGatewayApiKey(narrowedToken), expiresAt: null },
        { id: "mt_2", organizationId: "org_1", apiKeyId: "key_1", serverId: null, userId: "usr_2", tokenHash: hashGatewayApiKey(openToken), expiresAt: null },
      ],
      rateLimits:
        options.requestsPerMinute === undefined
          ? []
          : [{ id: "lim_1", organizationId: "org_1", scope: "key", scopeId: "key_1", windowSeconds: 60, requestsPerWindow: options.requestsPerMinute, tokensPerWindow: null, concurrency: null }],
      policies:
        options.deny || options.guardrails
          ? [{ id: "pol_1", organizationId: "org_1", scope: "project", scopeId: "prj_1", allow: [], deny: options.deny ?? [], guardrails: options.guardrails ?? null }]
          : [],
    }),
  );
  const dependencies: PipelineDependencies = {
    snapshots: { current: () => snapshot },
    usage: { enqueue: (event) => void events.push(event) },
    adapters: createAdapterRegistry({ transport, createAdapter: () => { throw new Error("an MCP call needs no provider adapter"); } }),
    admission: createAdmissionController({ store: createMemoryStore() }),
    requestTimeoutMs: 10_000,
  };
  const endpoint = createMcpCallEndpoint({
    upstream: {
      async call(call) {
        calls.push(call);
        return options.answer ? options.answer(call) : { content: [{ type: "text", text: `called ${call.name}` }], isError: false };
      },
      ...(options.catalog === undefined ? {} : { catalog: options.catalog }),
    },
  });
  const run = (request: McpCallRequest, credential = testApiKey, requestId = "req_mcp") =>
    runInferenceCall(
      dependencies,
      {
        requestId,
        headers: { authorization: `Bearer ${credential}` },
        readBody: async () => request,
        identity: (current) => authenticateMcpCaller({ authorization: `Bearer ${credential}` }, current),
        throwErrors: true,
      },
      endpoint,
    );
  return { run, events, calls };
}

const errorOf = async (promise: Promise<unknown>): Promise<GatewayError> => {
  try {
    await promise;
  } catch (error) {
    if (GatewayError.isInstance(error)) return error;
    throw error;
  }
  throw new Error("expected a GatewayError");
};

describe("served MCP names", () => {
  it("gives every server a prefix without the separator, unique in the organization, and maps names back", () => {
    const directory = compileMcpServerDirectory([
      server({ id: "a", name: "tickets" }),
      server({ id: "b", name: "my tools" }),
      server({ id: "c", name: "my__tools" }),
      server({ id: "d", name: "###" }),
    ]);
    expect([...directory.prefixOf.entries()]).toEqual([
      ["d", "server"],
      ["b", "my-tools"],
      ["c", "my-tools-2"],
      ["a", "tickets"],
    ]);
    expect(parseServedMcpName("my-tools-2__create__issue")).toEqual({ prefix: "my-tools-2", name: "create__issue" });
    expect(parseServedMcpName("no_separator")).toBeNull();
    expect(parseServedMcpResourceUri(servedMcpResourceUri("docs", "file:///a b/c.md?x=1"))).toEqual({ prefix: "docs", uri: "file:///a b/c.md?x=1" });
    // A client's expansion of a served template (RFC 6570 simple expansion encodes '/') decodes to the server's URI.
    const template = servedMcpResourceTemplate("docs", "file:///{path}");
    expect(template).toBe("mcp-gateway://docs/file%3A%2F%2F%2F{path}");
    expect(parseServedMcpResourceUri(template.replace("{path}", encodeURIComponent("notes/today.md")))).toEqual({ prefix: "docs", uri: "file:///notes/today.md" });
  });
});

describe("MCP calls on the call skeleton (no HTTP)", () => {
  it("calls the server that has the tool and records a usage event naming server, tool and caller", async () => {
    const { run, events, calls } = createHarness();
    const answer = await run({ kind: "tool", name: "tickets__create_issue", arguments: { title: "Broken" } });
    expect(answer).toMatchObject({ kind: "json", status: 200, body: { content: [{ type: "text", text: "called create_issue" }] } });
    expect(calls).toEqual([expect.objectContaining({ kind: "tool", name: "create_issue", arguments: { title: "Broken" }, requestId: "req_mcp" })]);
    expect(calls[0]!.server.id).toBe("srv_tickets");
    await vi.waitFor(() => expect(events).toHaveLength(1));
    expect(events[0]).toMatchObject({
      endpoint: "mcp",
      status: 200,
      requestedModel: "tickets__create_issue",
      provider: "tickets",
      model: "create_issue",
      apiKeyId: "key_1",
      projectId: "prj_1",
      costMicros: 0,
      content: null,
    });
  });

  it("captures arguments and result only when the project captures content; the MCP token's user is on the event", async () => {
    const { run, events } = createHarness({ captureContent: true });
    await run({ kind: "tool", name: "tickets__create_issue", arguments: { title: "Broken" } }, openToken, "req_token");
    await vi.waitFor(() => expect(events).toHaveLength(1));
    expect(events[0]).toMatchObject({
      userId: "usr_2",
      apiKeyId: "key_1",
      content: { request: { kind: "tool", name: "tickets__create_issue", arguments: { title: "Broken" } }, response: { content: [{ type: "text", text: "called create_issue" }] } },
    });
  });

  it("names prompts and resources apart in the usage event", async () => {
    const { run, events, calls } = createHarness();
    await run({ kind: "prompt", name: "tickets__triage", arguments: { id: "7" } }, testApiKey, "req_prompt");
    await run({ kind: "resource", name: servedMcpResourceUri("tickets", "tickets://7"), arguments: {} }, testApiKey, "req_resource");
    expect(calls.map((call) => [call.kind, call.name])).toEqual([["prompt", "triage"], ["resource", "tickets://7"]]);
    await vi.waitFor(() => expect(events).toHaveLength(2));
    expect(events.map((event) => event.model)).toEqual(["prompts/triage", "resources/tickets://7"]);
  });

  it("refuses unknown tools (404), denied tools (403), servers outside a narrowed token (404) and unauthorized servers (424), recording each", async () => {
    const { run, events, calls } = createHarness({ deny: ["mcp:tickets/delete_*"] });
    expect(await errorOf(run({ kind: "tool", name: "nowhere__x", arguments: {} }))).toMatchObject({ code: "tool_not_found", status: 404 });
    expect(await errorOf(run({ kind: "tool", name: "no-separator", arguments: {} }))).toMatchObject({ code: "tool_not_found" });
    expect(await errorOf(run({ kind: "tool", name: "tickets__delete_issue", arguments: {} }))).toMatchObject({
      code: "tool_not_allowed",
      status: 403,
      details: { subject: "mcp:tickets/delete_issue", rule: { effect: "deny", pattern: "mcp:tickets/delete_*" } },
    });
    // The narrowed token reaches only `docs`, which holds no grant yet.
    expect(await errorOf(run({ kind: "tool", name: "tickets__create_issue", arguments: {} }, narrowedToken))).toMatchObject({ code: "tool_not_found" });
    expect(await errorOf(run({ kind: "tool", name: "docs__search", arguments: {} }, narrowedToken))).toMatchObject({ code: "mcp_authorization_failed", status: 424 });
    expect(await errorOf(run({ kind: "tool", name: "tickets__create_issue", arguments: {} }, "gmt_unknown_0123456789abcdefghijkl"))).toMatchObject({ code: "invalid_gateway_api_key" });
    expect(calls).toEqual([]);
    await vi.waitFor(() => expect(events).toHaveLength(6));
    expect(events.map((event) => event.errorCode)).toEqual(["tool_not_found", "tool_not_found", "tool_not_allowed", "tool_not_found", "mcp_authorization_failed", "invalid_gateway_api_key"]);
  });

  it("refuses a tool or prompt the server's catalog does not list (404 tool_not_found) without calling it; an unreadable catalog lets the call through", async () => {
    const listed = { tools: [{ name: "create_issue" }], prompts: [{ name: "triage" }] };
    const { run, events, calls } = createHarness({ catalog: async () => listed });
    const tool = await errorOf(run({ kind: "tool", name: "tickets__no_such_tool", arguments: {} }));
    expect(tool).toMatchObject({ code: "tool_not_found", status: 404, message: "Unknown tool: tickets__no_such_tool" });
    expect((await errorOf(run({ kind: "prompt", name: "tickets__no_such_prompt", arguments: {} }))).code).toBe("tool_not_found");
    expect(calls).toEqual([]);
    await run({ kind: "tool", name: "tickets__create_issue", arguments: {} });
    await run({ kind: "prompt", name: "tickets__triage", arguments: {} });
    expect(calls.map((call) => call.name)).toEqual(["create_issue", "triage"]);
    await vi.waitFor(() => expect(events.map((event) => event.errorCode)).toEqual(["tool_not_found", "tool_not_found", null, null]));

    const unreadable = createHarness({ catalog: async () => Promise.reject(new GatewayError("service_unavailable")) });
    await unreadable.run({ kind: "tool", name: "tickets__anything", arguments: {} });
    expect(unreadable.calls.map((call) => call.name)).toEqual(["anything"]);
  });

  it("runs input guardrails over the arguments and output guardrails over the result", async () => {
    const guardrails = {
      rules: [
        { type: "pii", name: "no-email", action: "redact", detectors: ["email"] },
        { type: "blocked_terms", name: "codename", action: "block", terms: ["Falcon"], appliesTo: "output" },
      ],
    };
    const { run, calls } = createHarness({
      guardrails,
      answer: async (call) =>
        call.name === "leak"
          ? { content: [{ type: "text", text: "Project Falcon" }] }
          : { content: [{ type: "text", text: "mail bob@example.com" }], structuredContent: { owner: "bob@example.com", count: 1 } },
    });
    const answer = await run({ kind: "tool", name: "tickets__create_issue", arguments: { title: "from jane@example.com" } });
    expect(calls[0]!.arguments).toEqual({ title: "from [REDACTED:email]" });
    expect(answer).toMatchObject({ body: { content: [{ type: "text", text: "mail [REDACTED:email]" }], structuredContent: { owner: "[REDACTED:email]", count: 1 } } });
    expect(await errorOf(run({ kind: "tool", name: "tickets__leak", arguments: {} }))).toMatchObject({ code: "guardrail_blocked", details: { guardrail: "codename", stage: "output" } });
  });

  it("admits every call against the caller's rate limits (an MCP token counts as its key)", async () => {
    const { run, calls } = createHarness({ requestsPerMinute: 2 });
    await run({ kind: "tool", name: "tickets__create_issue", arguments: {} });
    await run({ kind: "tool", name: "tickets__create_issue", arguments: {} }, openToken);
    expect(await errorOf(run({ kind: "tool", name: "tickets__create_issue", arguments: {} }))).toMatchObject({ code: "gateway_rate_limit_exceeded", status: 429 });
    expect(calls).toHaveLength(2);
  });

  it("passes the upstream's failure on and records it", async () => {
    const { run, events } = createHarness({
      answer: async () => {
        throw new GatewayError("upstream_timeout", { message: "The MCP server 'tickets' did not answer in time." });
      },
    });
    expect(await errorOf(run({ kind: "tool", name: "tickets__slow", arguments: {} }))).toMatchObject({ code: "upstream_timeout", status: 504 });
    await vi.waitFor(() => expect(events[0]).toMatchObject({ status: 504, errorCode: "upstream_timeout", provider: "tickets", model: "slow" }));
  });

  it("validates the call (400 naming the field)", async () => {
    const { run } = createHarness();
    expect(await errorOf(run({ kind: "sampling", name: "x", arguments: {} } as unknown as McpCallRequest))).toMatchObject({ code: "invalid_request", param: "kind" });
  });
});
