import { type IncomingHttpHeaders, type ServerResponse, createServer } from "node:http";
import type { AddressInfo, Socket } from "node:net";

// A local server speaking the Gemini API's wire format (v1beta REST, JSON and `alt=sse`
// streams), checked against the official `@google/genai` client (gemini-mock.test.ts). Answers
// are derived from the request (so the gateway's own tests can drive it through any caller
// format), or scripted per test with `reply`.

/** A request as the mock received it. */
export interface GeminiMockRequest {
  method: string;
  /** The path without the query. */
  path: string;
  query: URLSearchParams;
  headers: IncomingHttpHeaders;
  /** `gemini-2.5-flash` of `/v1beta/models/gemini-2.5-flash:generateContent`; null for other paths. */
  model: string | null;
  /** `generateContent`, `streamGenerateContent`, `countTokens`, `embedContent`, `batchEmbedContents`; null for other paths. */
  method_: string | null;
  body: any;
}

/** A scripted answer: a JSON body (any status), or SSE chunks (optionally cut before the end: the socket is destroyed). */
export type GeminiMockReply =
  | { status?: number; json: unknown }
  | { stream: unknown[]; cut?: boolean };

/** The mock's control. */
export interface GeminiMock {
  url: string;
  apiKey: string;
  requests: GeminiMockRequest[];
  /** Scripts the answers of the next calls (in order; each one once), before the derived answers. */
  reply(...replies: GeminiMockReply[]): void;
  close(): Promise<void>;
}

const generateContentFields = new Set(["contents", "systemInstruction", "tools", "toolConfig", "generationConfig", "safetySettings", "cachedContent", "labels", "model"]);

/** Google's error body. */
export function googleError(code: number, status: string, message: string, details?: unknown[]): { error: Record<string, unknown> } {
  return { error: { code, message, status, ...(details === undefined ? {} : { details }) } };
}

/** Starts the mock on 127.0.0.1, port 0. `apiKey`: the only key it takes. */
export async function startGeminiMock(options: { apiKey?: string } = {}): Promise<GeminiMock> {
  const apiKey = options.apiKey ?? "gemini-test-key-0123456789";
  const requests: GeminiMockRequest[] = [];
  const scripted: GeminiMockReply[] = [];
  const sockets = new Set<Socket>();
  const server = createServer((incoming, response) => {
    const chunks: Buffer[] = [];
    incoming.on("data", (chunk: Buffer) => chunks.push(chunk));
    incoming.on("end", () => {
      const url = new URL(incoming.url ?? "/", "http://mock");
      const match = /^\/v1beta\/models\/([^/:]+):([A-Za-z]+)$/.exec(url.pathname);
      let body: unknown;
      try {
        body = chunks.length === 0 ? undefined : JSON.parse(Buffer.concat(chunks).toString("utf8"));
      } catch {
        return sendJson(response, 400, googleError(400, "INVALID_ARGUMENT", "Invalid JSON payload received."));
      }
      const request: GeminiMockRequest = {
        method: incoming.method ?? "GET", path: url.pathname, query: url.searchParams, headers: incoming.headers,
        model: match === null ? null : decodeURIComponent(match[1]!), method_: match === null ? null : match[2]!, body,
      };
      requests.push(request);
      if (incoming.headers["x-goog-api-key"] !== apiKey && url.searchParams.get("key") !== apiKey) {
        return sendJson(response, 400, googleError(400, "INVALID_ARGUMENT", "API key not valid. Please pass a valid API key.", [
          { "@type": "type.googleapis.com/google.rpc.ErrorInfo", reason: "API_KEY_INVALID", domain: "googleapis.com" },
        ]));
      }
      const next = scripted.shift();
      if (next !== undefined) return sendReply(response, next);
      answer(request, response);
    });
  });
  // Longer than a test's pauses (a tokenizer loading on the test's thread): an idle keep-alive
  // socket the mock closed would reset the client's next request.
  server.keepAliveTimeout = 60_000;
  server.on("connection", (socket) => {
    sockets.add(socket);
    socket.on("close", () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    apiKey,
    requests,
    reply: (...replies) => void scripted.push(...replies),
    async close() {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

function sendJson(response: ServerResponse, status: number, body: unknown): void {
  const text = JSON.stringify(body);
  response.writeHead(status, { "content-type": "application/json; charset=UTF-8", "content-length": Buffer.byteLength(text) });
  response.end(text);
}

function sendReply(response: ServerResponse, reply: GeminiMockReply): void {
  if ("json" in reply) return sendJson(response, reply.status ?? 200, reply.json);
  response.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-cache" });
  response.flushHeaders();
  const text = reply.stream.map((chunk) => `data: ${JSON.stringify(chunk)}\r\n\r\n`).join("");
  // A cut stream: the events are written, then the socket closes without the end of the body.
  if (reply.cut === true) response.write(text, () => setTimeout(() => response.socket?.destroy(), 20));
  else response.end(text);
}

function answer(request: GeminiMockRequest, response: ServerResponse): void {
  if (request.method === "GET" && request.path === "/v1beta/models") {
    return sendJson(response, 200, { models: [{ name: "models/gemini-2.5-flash", supportedGenerationMethods: ["generateContent", "countTokens"] }] });
  }
  if (request.method !== "POST" || request.model === null) return sendJson(response, 404, googleError(404, "NOT_FOUND", `Method not found: ${request.path}`));
  if (request.model.includes("missing")) return sendJson(response, 404, googleError(404, "NOT_FOUND", `models/${request.model} is not found for API version v1beta.`));
  const body = (request.body ?? {}) as Record<string, any>;
  switch (request.method_) {
    case "generateContent":
    case "streamGenerateContent": {
      const unknown = Object.keys(body).find((key) => !generateContentFields.has(key));
      if (unknown !== undefined) return sendJson(response, 400, googleError(400, "INVALID_ARGUMENT", `Invalid JSON payload received. Unknown name "${unknown}": Cannot find field.`));
      if (!Array.isArray(body.contents) || body.contents.length === 0) return sendJson(response, 400, googleError(400, "INVALID_ARGUMENT", "* GenerateContentRequest.contents: contents is not specified"));
      const whole = generate(body);
      if (request.method_ === "generateContent") return sendJson(response, 200, whole);
      if (request.query.get("alt") !== "sse") return sendJson(response, 200, [whole]);
      return sendReply(response, { stream: streamChunks(whole) });
    }
    case "countTokens": {
      const counted = body.generateContentRequest ?? body;
      return sendJson(response, 200, { totalTokens: words(counted), promptTokensDetails: [{ modality: "TEXT", tokenCount: words(counted) }] });
    }
    case "embedContent":
      return sendJson(response, 200, { embedding: { values: vector(textOf(body.content), body.outputDimensionality) } });
    case "batchEmbedContents": {
      const wrong = (body.requests as any[]).find((entry) => entry.model !== `models/${request.model}`);
      if (wrong !== undefined) return sendJson(response, 400, googleError(400, "INVALID_ARGUMENT", `Model "${wrong.model}" in the request does not match the model of the batch.`));
      return sendJson(response, 200, { embeddings: (body.requests as any[]).map((entry) => ({ values: vector(textOf(entry.content), entry.outputDimensionality) })) });
    }
    default:
      return sendJson(response, 404, googleError(404, "NOT_FOUND", `Method not found: ${request.method_}`));
  }
}

/** The text of a Content (its text parts joined). */
function textOf(content: any): string {
  return Array.isArray(content?.parts) ? content.parts.map((part: any) => (typeof part.text === "string" ? part.text : "")).join("") : "";
}

/** The mock's "tokens": the words of every string in a value. */
function words(value: unknown): number {
  const text = JSON.stringify(value ?? "").replace(/[{}[\]",:]/g, " ");
  return text.split(/\s+/).filter((word) => word !== "").length;
}

function vector(text: string, dimensions: number | undefined): number[] {
  return Array.from({ length: dimensions ?? 8 }, (_, index) => Number(((text.length % 7) / 10 + index / 100).toFixed(4)));
}

/** The answer the mock derives from a generateContent body. */
function generate(body: Record<string, any>): Record<string, unknown> {
  const last = body.contents.at(-1);
  const lastText = textOf(last);
  const config = body.generationConfig ?? {};
  const declared: string[] = (body.tools ?? []).flatMap((tool: any) => (tool.functionDeclarations ?? []).map((declaration: any) => declaration.name));
  const thoughts = config.thinkingConfig?.thinkingBudget > 0 ? 12 : 0;
  const promptTokens = words({ contents: body.contents, systemInstruction: body.systemInstruction });
  const respond = (parts: unknown[], extra: Record<string, unknown> = {}) => {
    const candidatesTokens = words(parts);
    return {
      candidates: [{ content: { role: "model", parts }, finishReason: "STOP", index: 0, ...extra }],
      usageMetadata: { promptTokenCount: promptTokens, candidatesTokenCount: candidatesTokens, totalTokenCount: promptTokens + candidatesTokens + thoughts, ...(thoughts > 0 ? { thoughtsTokenCount: thoughts } : {}) },
      modelVersion: "gemini-2.5-flash",
      responseId: "mock-response-1",
    };
  };
  if (lastText.includes("BLOCKME")) {
    return { promptFeedback: { blockReason: "SAFETY" }, usageMetadata: { promptTokenCount: promptTokens, totalTokenCount: promptTokens }, modelVersion: "gemini-2.5-flash" };
  }
  const toolResults = (last.parts ?? []).filter((part: any) => part.functionResponse !== undefined).map((part: any) => part.functionResponse);
  if (toolResults.length > 0) {
    return respond([{ text: toolResults.map((result: any) => `${result.name} says: ${String(result.response?.result ?? JSON.stringify(result.response))}`).join("; ") }]);
  }
  if (declared.includes("get_weather") && /weather/i.test(lastText) && config.responseMimeType === undefined) {
    const cities = /Paris and Rome/.test(lastText) ? ["Paris", "Rome"] : ["Paris"];
    return respond(cities.map((city) => ({ functionCall: { name: "get_weather", args: { city } } })));
  }
  if (config.responseLogprobs === true) {
    const labels = /Reply with exactly one label: ([^\n]+)\.$/m.exec(lastText)?.[1]?.split(", ") ?? ["A"];
    const probabilities = labels.map((_, index) => (index === 0 ? 0.6 : 0.4 / Math.max(1, labels.length - 1)));
    const candidates = labels.map((token, index) => ({ token, logProbability: Math.log(probabilities[index]!) })).slice(0, config.logprobs ?? 0);
    return respond([{ text: labels[0] }], { logprobsResult: { topCandidates: [{ candidates }], chosenCandidates: [candidates[0] ?? { token: labels[0], logProbability: Math.log(0.6) }] }, avgLogprobs: Math.log(0.6) });
  }
  if (config.responseMimeType === "application/json") {
    const properties = Object.keys(config.responseJsonSchema?.properties ?? config.responseSchema?.properties ?? {});
    const values = Object.fromEntries(properties.map((name, index) => [name, index === 0 ? 0.7 : 0.3 / Math.max(1, properties.length - 1)]));
    return respond([{ text: JSON.stringify(values) }]);
  }
  return respond([{ text: "Hello from Gemini, how can I help?" }]);
}

/** A whole answer as the stream writes it: text in pieces, function calls whole, usage on every chunk, the finish reason last. */
function streamChunks(whole: Record<string, any>): unknown[] {
  const candidate = whole.candidates?.[0];
  if (candidate === undefined) return [whole];
  const chunks: unknown[] = [];
  const base = { usageMetadata: { promptTokenCount: whole.usageMetadata.promptTokenCount, totalTokenCount: whole.usageMetadata.promptTokenCount }, modelVersion: whole.modelVersion, responseId: whole.responseId };
  for (const part of candidate.content.parts) {
    if (typeof part.text === "string" && part.text.length > 8) {
      const middle = Math.floor(part.text.length / 2);
      for (const text of [part.text.slice(0, middle), part.text.slice(middle)]) chunks.push({ candidates: [{ content: { role: "model", parts: [{ text }] }, index: 0 }], ...base });
    } else chunks.push({ candidates: [{ content: { role: "model", parts: [part] }, index: 0 }], ...base });
  }
  const lastChunk = chunks.at(-1) as Record<string, any>;
  lastChunk.candidates[0].finishReason = candidate.finishReason;
  lastChunk.usageMetadata = whole.usageMetadata;
  return chunks;
}
