import { type KeyObject, randomBytes, verify } from "node:crypto";
import { type IncomingMessage, type ServerResponse, createServer } from "node:http";
import type { AddressInfo, Socket } from "node:net";
import { type AnthropicAnswer, anthropicError, anthropicStreamEvents, defaultAnthropicAnswer, invalidMessagesBody } from "./vertex-mock-anthropic.js";

/** A Claude or Gemini call as the mock received it. */
export interface VertexMockCall {
  method: "rawPredict" | "streamRawPredict" | "count-tokens" | "generateContent" | "streamGenerateContent" | "countTokens";
  model: string;
  path: string;
  headers: IncomingMessage["headers"];
  body: Record<string, any>;
}

/** Options of {@link startVertexMock}. */
export interface VertexMockOptions {
  project: string;
  location: string;
  /** The service account whose signed assertions the token endpoint accepts. */
  serviceAccount: { clientEmail: string; publicKey: KeyObject };
  /** `expires_in` of issued tokens (default 3600). */
  tokenLifetimeSeconds?: number;
  /** Scripts Claude's answer (default {@link defaultAnthropicAnswer}). */
  answer?(call: VertexMockCall): AnthropicAnswer;
}

/** A local Vertex AI: Google's OAuth token endpoint (`POST /token`) and the Claude publisher model methods. */
export interface VertexMock {
  /** The base URL of a connection (the API root is `{url}/v1`). */
  url: string;
  /** The token endpoint (the `token_uri` of the test key). */
  tokenUrl: string;
  /** Claude calls that passed authentication. */
  calls: VertexMockCall[];
  /** Access tokens issued so far (in order). */
  issuedTokens: string[];
  /** The decoded claims of every assertion accepted. */
  assertions: Record<string, unknown>[];
  close(): Promise<void>;
}

const googleTokenAudience = "https://oauth2.googleapis.com/token";
const jwtBearerGrant = "urn:ietf:params:oauth:grant-type:jwt-bearer";
const modelPath = /^\/v1\/projects\/([^/]+)\/locations\/([^/]+)\/publishers\/([^/]+)\/models\/([^/:]+):([A-Za-z]+)$/;

/**
 * Starts the mock on 127.0.0.1, port 0. The token endpoint verifies the RS256 assertion exactly
 * as Google's does (signature with the key's public half, `iss`, `aud`, `scope`, `iat`/`exp`)
 * and issues opaque tokens; Vertex methods answer 401 `UNAUTHENTICATED` for a token it did not
 * issue (or one expired), 404 for another project, location or publisher, and Anthropic's 400
 * for a messages body Vertex rejects (a `model` field, no `anthropic_version`).
 */
export async function startVertexMock(options: VertexMockOptions): Promise<VertexMock> {
  const calls: VertexMockCall[] = [];
  const issued = new Map<string, number>();
  const issuedTokens: string[] = [];
  const assertions: Record<string, unknown>[] = [];
  const sockets = new Set<Socket>();

  const server = createServer(async (request, response) => {
    const chunks: Buffer[] = [];
    for await (const chunk of request) chunks.push(chunk as Buffer);
    const text = Buffer.concat(chunks).toString("utf8");
    const url = new URL(request.url ?? "/", "http://mock");
    if (request.method === "POST" && url.pathname === "/token") return answerToken(text, response);
    const match = modelPath.exec(url.pathname);
    if (request.method !== "POST" || match === null) return googleError(response, 404, "NOT_FOUND", `The requested URL ${url.pathname} was not found on this server.`);
    const token = /^Bearer (.+)$/.exec(request.headers.authorization ?? "")?.[1];
    const expiresAt = token === undefined ? undefined : issued.get(token);
    if (expiresAt === undefined || expiresAt <= Date.now()) {
      return googleError(response, 401, "UNAUTHENTICATED", "Request had invalid authentication credentials. Expected OAuth 2 access token, login cookie or other valid authentication credential.");
    }
    const [, project, location, publisher, model, method] = match.map((part) => decodeURIComponent(part ?? ""));
    if (project === options.project && location === options.location && publisher === "google") return answerGemini(model!, method!, text, request, url, response);
    if (project !== options.project || location !== options.location || publisher !== "anthropic") {
      return googleError(response, 404, "NOT_FOUND", `Publisher Model \`projects/${project}/locations/${location}/publishers/${publisher}/models/${model}\` not found.`);
    }
    let body: Record<string, any>;
    try {
      body = JSON.parse(text) as Record<string, any>;
    } catch {
      return googleError(response, 400, "INVALID_ARGUMENT", "Invalid JSON payload received.");
    }
    if (model === "count-tokens" && method === "rawPredict") return countTokens(body, request, url, response);
    if (method !== "rawPredict" && method !== "streamRawPredict") return googleError(response, 400, "INVALID_ARGUMENT", `Method ${method} is not supported for this model.`);
    const invalid = invalidMessagesBody(body);
    if (invalid !== undefined) return sendJson(response, 400, anthropicError("invalid_request_error", invalid));
    const call: VertexMockCall = { method, model: model!, path: url.pathname, headers: request.headers, body };
    calls.push(call);
    const answer = options.answer?.(call) ?? defaultAnthropicAnswer(model!, body);
    if (answer.kind === "error") return sendJson(response, answer.status, answer.body);
    if (method === "rawPredict") return sendJson(response, 200, answer.message);
    return streamMessage(response, answer);
  });

  // Gemini on Vertex: the Gemini API's bodies at the publisher model's methods (a fixed answer;
  // `countTokens` takes `contents` at the top level, as Vertex does).
  function answerGemini(model: string, method: string, text: string, request: IncomingMessage, url: URL, response: ServerResponse): void {
    const body = JSON.parse(text) as Record<string, any>;
    if (!Array.isArray(body.contents)) return googleError(response, 400, "INVALID_ARGUMENT", "contents is required.");
    if (method !== "generateContent" && method !== "streamGenerateContent" && method !== "countTokens") {
      return googleError(response, 400, "INVALID_ARGUMENT", `Method ${method} is not supported for this model.`);
    }
    calls.push({ method, model, path: `${url.pathname}${url.search}`, headers: request.headers, body });
    if (method === "countTokens") return sendJson(response, 200, { totalTokens: Math.ceil(JSON.stringify(body.contents).length / 4) });
    const usageMetadata = { promptTokenCount: 5, candidatesTokenCount: 4, totalTokenCount: 9 };
    const chunks = [
      { candidates: [{ content: { role: "model", parts: [{ text: "Hello from " }] }, index: 0 }], modelVersion: model },
      { candidates: [{ content: { role: "model", parts: [{ text: "Gemini on Vertex" }] }, finishReason: "STOP", index: 0 }], usageMetadata, modelVersion: model },
    ];
    if (method === "generateContent") {
      return sendJson(response, 200, { candidates: [{ content: { role: "model", parts: [{ text: "Hello from Gemini on Vertex" }] }, finishReason: "STOP", index: 0 }], usageMetadata, modelVersion: model });
    }
    if (url.searchParams.get("alt") !== "sse") return googleError(response, 400, "INVALID_ARGUMENT", "alt=sse expected by this mock.");
    response.writeHead(200, { "content-type": "text/event-stream" });
    response.end(chunks.map((chunk) => `data: ${JSON.stringify(chunk)}\r\n\r\n`).join(""));
  }

  function answerToken(text: string, response: ServerResponse): void {
    const form = new URLSearchParams(text);
    const claims = form.get("grant_type") === jwtBearerGrant ? verifiedClaims(form.get("assertion") ?? "") : undefined;
    if (claims === undefined) return sendJson(response, 400, { error: "invalid_grant", error_description: "Invalid JWT Signature." });
    assertions.push(claims);
    const token = `ya29.mock-${randomBytes(24).toString("base64url")}`;
    const lifetime = options.tokenLifetimeSeconds ?? 3600;
    issued.set(token, Date.now() + lifetime * 1000);
    issuedTokens.push(token);
    sendJson(response, 200, { access_token: token, expires_in: lifetime, token_type: "Bearer" });
  }

  function verifiedClaims(assertion: string): Record<string, unknown> | undefined {
    const [header, payload, signature] = assertion.split(".");
    if (header === undefined || payload === undefined || signature === undefined) return undefined;
    const headerJson = JSON.parse(Buffer.from(header, "base64url").toString("utf8")) as Record<string, unknown>;
    if (headerJson.alg !== "RS256") return undefined;
    if (!verify("RSA-SHA256", Buffer.from(`${header}.${payload}`), options.serviceAccount.publicKey, Buffer.from(signature, "base64url"))) return undefined;
    const claims = JSON.parse(Buffer.from(payload, "base64url").toString("utf8")) as Record<string, any>;
    const now = Date.now() / 1000;
    const valid =
      claims.iss === options.serviceAccount.clientEmail &&
      claims.aud === googleTokenAudience &&
      String(claims.scope).split(" ").includes("https://www.googleapis.com/auth/cloud-platform") &&
      typeof claims.iat === "number" && claims.iat <= now + 60 &&
      typeof claims.exp === "number" && claims.exp > now && claims.exp - claims.iat <= 3600;
    return valid ? claims : undefined;
  }

  function countTokens(body: Record<string, any>, request: IncomingMessage, url: URL, response: ServerResponse): void {
    if (typeof body.model !== "string" || !Array.isArray(body.messages)) return sendJson(response, 400, anthropicError("invalid_request_error", "model: Field required"));
    calls.push({ method: "count-tokens", model: body.model, path: url.pathname, headers: request.headers, body });
    sendJson(response, 200, { input_tokens: Math.ceil(JSON.stringify({ system: body.system, messages: body.messages, tools: body.tools }).length / 4) });
  }

  server.on("connection", (socket) => {
    sockets.add(socket);
    socket.on("close", () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  const url = `http://127.0.0.1:${port}`;
  return {
    url,
    tokenUrl: `${url}/token`,
    calls,
    issuedTokens,
    assertions,
    async close() {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

async function streamMessage(response: ServerResponse, answer: Extract<AnthropicAnswer, { kind: "message" }>): Promise<void> {
  response.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-cache" });
  let events = anthropicStreamEvents(answer.message);
  const options = answer as { cutAfter?: number; errorType?: string };
  if (options.errorType !== undefined) {
    events = [...events.slice(0, 3), ["error", anthropicError(options.errorType, "Overloaded")]];
  }
  for (const [index, [event, data]] of events.entries()) {
    if (options.cutAfter !== undefined && index >= options.cutAfter) {
      response.destroy();
      return;
    }
    // Flushed one by one: a cut must come after the events before it reached the client.
    await new Promise<void>((resolve) => response.write(`event: ${event}\ndata: ${JSON.stringify(data)}\n\n`, () => resolve()));
  }
  response.end();
}

function sendJson(response: ServerResponse, status: number, body: unknown): void {
  const text = JSON.stringify(body);
  response.writeHead(status, { "content-type": "application/json; charset=UTF-8", "content-length": Buffer.byteLength(text) });
  response.end(text);
}

/** Google's error body: `{error: {code, message, status}}`. */
function googleError(response: ServerResponse, code: number, status: string, message: string): void {
  sendJson(response, code, { error: { code, message, status } });
}
