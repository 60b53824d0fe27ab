import { randomBytes } from "node:crypto";
import { type Database, createApiKey, createMcpServer, createOrganization, createProject } from "@gateway/db";
import { type LocalMcpServer, startLocalMcpServer } from "@gateway/mcp/testing";
import { Client, ProtocolError, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type RunningGateway, startGateway } from "../src/start-gateway.js";
import { createRecordingLogger, createTemporaryDirectory } from "./support/temporary-directory.js";

// The MCP endpoint's own bounds: its body (size, then width) is checked before the MCP SDK
// validates it key by key, and a call's result is bounded before it is written to the caller.

const resultLimitBytes = 64 * 1024;
const bodyLimitBytes = 256 * 1024;

let gateway: RunningGateway<Database>;
let directory: { path: string; remove(): void };
let docs: LocalMcpServer;
let apiKey: string;

beforeAll(async () => {
  directory = createTemporaryDirectory();
  docs = await startLocalMcpServer({
    name: "docs",
    tools: [
      { name: "small", handler: () => ({ content: [{ type: "text", text: "x".repeat(1000) }] }) },
      { name: "large", handler: () => ({ content: [{ type: "text", text: "x".repeat(resultLimitBytes * 1.5) }] }) },
      { name: "huge", handler: () => ({ content: [{ type: "text", text: "x".repeat(resultLimitBytes * 20) }] }) },
    ],
  });
  gateway = await startGateway({
    env: { GATEWAY_SECRET_KEY: randomBytes(32).toString("base64") },
    settings: { port: 0, host: "127.0.0.1", dataDirectory: directory.path, mcpCatalogTtlMs: 0, mcpResultLimitBytes: resultLimitBytes, mcpBodyLimitBytes: bodyLimitBytes },
    logger: createRecordingLogger(),
  });
  const database = gateway.database;
  const organization = await createOrganization(database, { name: "Limits", slug: `limits-${randomBytes(3).toString("hex")}` });
  const project = await createProject(database, { organizationId: organization.id, name: "agents" });
  apiKey = (await createApiKey(database, { organizationId: organization.id, projectId: project.id, name: "agent key" })).secret;
  await createMcpServer(database, { organizationId: organization.id, name: "docs", url: docs.url, transport: "streamable_http", authKind: "none" }, { secretBox: gateway.secretBox });
  await gateway.runtime.snapshots.refresh();
}, 60_000);

afterAll(async () => {
  await gateway?.close();
  await docs?.close();
  directory?.remove();
});

/** One raw JSON-RPC POST to the gateway's MCP endpoint: its status and body text. */
async function post(body: string): Promise<{ status: number; text: string }> {
  const response = await fetch(`${gateway.url}/mcp`, {
    method: "POST",
    headers: { authorization: `Bearer ${apiKey}`, "content-type": "application/json", accept: "application/json, text/event-stream" },
    body,
  });
  return { status: response.status, text: await response.text() };
}

/** An official MCP client on the gateway's endpoint. */
async function connect(): Promise<Client> {
  const client = new Client({ name: "limits-test", version: "1.0.0" });
  await client.connect(new StreamableHTTPClientTransport(new URL(`${gateway.url}/mcp`), { requestInit: { headers: { authorization: `Bearer ${apiKey}` } } }));
  return client;
}

const listWithKeys = (count: number) => `{"jsonrpc":"2.0","id":1,"method":"tools/list","params":{${Array.from({ length: count }, (_, index) => `"k${index}":${index}`).join(",")}}}`;

describe("the MCP endpoint's bounds", () => {
  it("refuses a body over GATEWAY_MCP_BODY_LIMIT_BYTES (413), and a wide one under it (400), before the MCP SDK sees it", async () => {
    // Under the general body limit (10 MiB), over the MCP endpoint's.
    const large = listWithKeys(25_000);
    expect(large.length).toBeGreaterThan(bodyLimitBytes);
    const tooLarge = await post(large);
    expect(tooLarge.status).toBe(413);
    expect(tooLarge.text).toContain(String(bodyLimitBytes));
    // Under it, but 15,000 keys in one object (the report's 500,000-key params, scaled to the limit).
    const wide = listWithKeys(15_000);
    expect(wide.length).toBeLessThan(bodyLimitBytes);
    const refused = await post(wide);
    expect(refused.status).toBe(400);
    expect(refused.text).toContain("more than 1000 keys");
    // An ordinary client is served.
    const client = await connect();
    try {
      expect((await client.listTools()).tools.map((tool) => tool.name)).toContain("docs__small");
    } finally {
      await client.close();
    }
  });

  it("relays a result within GATEWAY_MCP_RESULT_LIMIT_BYTES and refuses a larger one with a JSON-RPC error naming the limit", async () => {
    const client = await connect();
    try {
      const small = await client.callTool({ name: "docs__small", arguments: {} });
      expect(JSON.stringify(small)).toContain("x".repeat(1000));
      const refused = await client.callTool({ name: "docs__large", arguments: {} }).then(
        () => null,
        (error: unknown) => error,
      );
      expect(ProtocolError.isInstance(refused)).toBe(true);
      const error = refused as ProtocolError;
      expect(error.code).toBe(-32603);
      expect(error.message).toContain("GATEWAY_MCP_RESULT_LIMIT_BYTES");
      expect(error.message).toContain(String(resultLimitBytes));
      // Far larger: not even read whole (the upstream answer is cut at twice the limit); still a JSON-RPC error, at once.
      const cut = await client.callTool({ name: "docs__huge", arguments: {} }).then(
        () => null,
        (thrown: unknown) => thrown,
      );
      expect(ProtocolError.isInstance(cut)).toBe(true);
      expect((cut as ProtocolError).code).toBe(-32603);
    } finally {
      await client.close();
    }
  });
});
