import { type IncomingMessage, type ServerResponse, createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { type CallToolResult, ProtocolError, Server, createMcpHandler } from "@modelcontextprotocol/server";

/** A tool of a {@link createLocalMcpHandler} server. */
export interface LocalMcpTool {
  name: string;
  description?: string;
  /** JSON Schema of the arguments (default: any object). */
  inputSchema?: { type: "object"; [keyword: string]: unknown };
  handler(argumentsValue: Record<string, unknown>, context: { signal: AbortSignal }): CallToolResult | Promise<CallToolResult>;
}

/** Options of {@link createLocalMcpHandler}. */
export interface LocalMcpServerOptions {
  name: string;
  tools?: LocalMcpTool[];
  prompts?: { name: string; description?: string; arguments?: { name: string; required?: boolean }[]; text(argumentsValue: Record<string, string>): string }[];
  resources?: { uri: string; name: string; text: string; mimeType?: string }[];
  /** Accepts or refuses the bearer token of each request (default: everything); refused requests get 401. */
  authorize?: (token: string | undefined) => boolean;
  /** The `resource_metadata` of the 401 challenge. */
  resourceMetadataUrl?: string;
  /**
   * Sees each authorized JSON-RPC message before the server does; returns true when it answered
   * (or broke) the response itself: for malformed answers and dropped connections.
   */
  intercept?: (message: { method: string | null; id: unknown; params: unknown }, response: ServerResponse) => boolean;
}

/** The node request handler of a local MCP server, and what it saw. */
export interface LocalMcpHandler {
  (request: IncomingMessage, response: ServerResponse): Promise<void>;
  /** Every request: its JSON-RPC method and bearer token. */
  readonly requests: { method: string | null; token: string | undefined }[];
}

/**
 * An MCP server for tests, on the official SDK (its stateless HTTP handler: it answers clients of
 * the 2026-07-28 revision and of the 2025 revisions): the given tools (JSON Schema inputs),
 * prompts and text resources, behind an optional bearer-token check.
 */
export function createLocalMcpHandler(options: LocalMcpServerOptions): LocalMcpHandler {
  const requests: { method: string | null; token: string | undefined }[] = [];
  const handler = createMcpHandler(() => {
    const capabilities = {
      ...(options.tools ? { tools: {} } : {}),
      ...(options.prompts ? { prompts: {} } : {}),
      ...(options.resources ? { resources: {} } : {}),
    };
    const server = new Server({ name: options.name, version: "1.0.0" }, { capabilities });
    if (options.tools) {
      const tools = options.tools;
      server.setRequestHandler("tools/list", async () => ({
        tools: tools.map((tool) => ({ name: tool.name, description: tool.description ?? tool.name, inputSchema: tool.inputSchema ?? { type: "object" } })),
      }));
      server.setRequestHandler("tools/call", async (request, context) => {
        const tool = tools.find((candidate) => candidate.name === request.params.name);
        if (tool === undefined) throw new ProtocolError(-32602, `Unknown tool: ${request.params.name}`);
        return tool.handler(request.params.arguments ?? {}, { signal: context.mcpReq.signal });
      });
    }
    if (options.prompts) {
      const prompts = options.prompts;
      server.setRequestHandler("prompts/list", async () => ({
        prompts: prompts.map((prompt) => ({ name: prompt.name, description: prompt.description ?? prompt.name, arguments: prompt.arguments ?? [] })),
      }));
      server.setRequestHandler("prompts/get", async (request) => {
        const prompt = prompts.find((candidate) => candidate.name === request.params.name);
        if (prompt === undefined) throw new ProtocolError(-32602, `Unknown prompt: ${request.params.name}`);
        return { messages: [{ role: "user", content: { type: "text", text: prompt.text(request.params.arguments ?? {}) } }] };
      });
    }
    if (options.resources) {
      const resources = options.resources;
      server.setRequestHandler("resources/list", async () => ({
        resources: resources.map((resource) => ({ uri: resource.uri, name: resource.name, mimeType: resource.mimeType ?? "text/plain" })),
      }));
      server.setRequestHandler("resources/templates/list", async () => ({ resourceTemplates: [] }));
      server.setRequestHandler("resources/read", async (request) => {
        const resource = resources.find((candidate) => candidate.uri === request.params.uri);
        if (resource === undefined) throw new ProtocolError(-32602, `Resource not found: ${request.params.uri}`);
        return { contents: [{ uri: resource.uri, mimeType: resource.mimeType ?? "text/plain", text: resource.text }] };
      });
    }
    return server;
  });
  const serve = (async (request: IncomingMessage, response: ServerResponse) => {
    const chunks: Buffer[] = [];
    for await (const chunk of request) chunks.push(chunk as Buffer);
    const body = Buffer.concat(chunks).toString("utf8");
    let parsed: unknown;
    try {
      parsed = body === "" ? undefined : JSON.parse(body);
    } catch {
      parsed = undefined;
    }
    const token = /^Bearer (\S+)$/i.exec(request.headers.authorization ?? "")?.[1];
    const method = typeof (parsed as { method?: unknown } | undefined)?.method === "string" ? (parsed as { method: string }).method : null;
    requests.push({ method, token });
    if (options.authorize && !options.authorize(token)) {
      const challenge = `Bearer error="invalid_token"${options.resourceMetadataUrl ? `, resource_metadata="${options.resourceMetadataUrl}"` : ""}`;
      response.writeHead(401, { "www-authenticate": challenge, "content-type": "application/json" }).end(JSON.stringify({ error: "invalid_token" }));
      return;
    }
    if (options.intercept && parsed !== undefined) {
      const message = parsed as { id?: unknown; params?: unknown };
      if (options.intercept({ method, id: message.id, params: message.params }, response)) return;
    }
    const abort = new AbortController();
    response.once("close", () => abort.abort());
    const headers = new Headers();
    for (const [name, value] of Object.entries(request.headers)) {
      if (typeof value === "string" && name !== "content-length" && name !== "connection") headers.set(name, value);
    }
    const webRequest = new Request(`http://${request.headers.host ?? "127.0.0.1"}${request.url ?? "/"}`, {
      method: request.method ?? "GET",
      headers,
      signal: abort.signal,
      ...(request.method === "POST" ? { body } : {}),
    });
    const answer = await handler.fetch(webRequest, parsed === undefined ? {} : { parsedBody: parsed });
    const responseHeaders: Record<string, string> = {};
    answer.headers.forEach((value, name) => {
      responseHeaders[name] = value;
    });
    response.writeHead(answer.status, responseHeaders);
    if (answer.body === null) {
      response.end();
      return;
    }
    try {
      for await (const chunk of answer.body) response.write(chunk);
    } catch {
      // The client went away.
    }
    response.end();
  }) as LocalMcpHandler;
  Object.defineProperty(serve, "requests", { value: requests });
  return serve;
}

/** A running {@link startLocalMcpServer}. */
export interface LocalMcpServer {
  /** Its MCP endpoint, `http://127.0.0.1:<port>/mcp`. */
  url: string;
  handler: LocalMcpHandler;
  close(): Promise<void>;
}

/** Serves {@link createLocalMcpHandler} on its own port (0) at `/mcp`. */
export async function startLocalMcpServer(options: LocalMcpServerOptions): Promise<LocalMcpServer> {
  const handler = createLocalMcpHandler(options);
  const server = createServer((request, response) => {
    handler(request, response).catch(() => {
      if (!response.headersSent) response.writeHead(500).end();
      else response.destroy();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/mcp`,
    handler,
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
