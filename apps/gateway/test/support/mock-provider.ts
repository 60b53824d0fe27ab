import { type IncomingHttpHeaders, createServer } from "node:http";
import type { AddressInfo } from "node:net";

/** A request as the mock provider received it. */
export interface RecordedRequest {
  method: string;
  path: string;
  headers: IncomingHttpHeaders;
  body: unknown;
}

/** What a mock answers; `delayMs` holds the answer back (for timeouts). */
export interface MockAnswer {
  status?: number;
  headers?: Record<string, string>;
  body?: unknown;
  delayMs?: number;
}

type Handler = (request: RecordedRequest) => MockAnswer;

/** A local HTTP server on port 0 standing in for a provider; records every request. */
export interface MockProvider {
  baseUrl: string;
  requests: RecordedRequest[];
  /** Replaces the wire-format handler until reset (null restores the default). */
  override(handler: Handler | null): void;
  close(): Promise<void>;
}

/** Starts a mock provider with a default handler speaking one wire format. */
export async function startMockProvider(defaultHandler: Handler): Promise<MockProvider> {
  const requests: RecordedRequest[] = [];
  let current: Handler = defaultHandler;
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on("data", (chunk: Buffer) => chunks.push(chunk));
    request.on("end", () => {
      const text = Buffer.concat(chunks).toString("utf8");
      let body: unknown = text;
      try {
        body = text === "" ? undefined : JSON.parse(text);
      } catch {
        // keep the raw text
      }
      const recorded: RecordedRequest = { method: request.method ?? "GET", path: request.url ?? "/", headers: request.headers, body };
      requests.push(recorded);
      const answer = current(recorded);
      const send = () => {
        if (response.destroyed) return;
        const payload = answer.body === undefined ? "" : typeof answer.body === "string" ? answer.body : JSON.stringify(answer.body);
        response.writeHead(answer.status ?? 200, { "content-type": "application/json", ...answer.headers });
        response.end(payload);
      };
      if (answer.delayMs) setTimeout(send, answer.delayMs);
      else send();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}`,
    requests,
    override(handler) {
      current = handler ?? defaultHandler;
    },
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/**
 * OpenAI Chat Completions (`POST /v1/chat/completions`) answering one token with
 * `logprobs.content[0].top_logprobs` taken from `topLogprobs`, as OpenAI does with
 * `logprobs: true, top_logprobs: 20, max_completion_tokens: 1`.
 */
export function openAiChatHandler(topLogprobs: () => { token: string; logprob: number }[]): Handler {
  return (request) => {
    if (request.method !== "POST" || request.path !== "/v1/chat/completions") {
      return { status: 404, body: { error: { message: "Unknown path", type: "invalid_request_error", param: null, code: null } } };
    }
    const body = request.body as { model: string };
    const top = topLogprobs();
    const first = top[0]!;
    return {
      body: {
        id: "chatcmpl-mock",
        object: "chat.completion",
        created: 1_700_000_000,
        model: body.model,
        choices: [
          {
            index: 0,
            message: { role: "assistant", content: first.token, refusal: null },
            logprobs: {
              content: [
                {
                  token: first.token,
                  logprob: first.logprob,
                  bytes: [...Buffer.from(first.token)],
                  top_logprobs: top.map((entry) => ({ ...entry, bytes: [...Buffer.from(entry.token)] })),
                },
              ],
              refusal: null,
            },
            finish_reason: "length",
          },
        ],
        usage: {
          prompt_tokens: 50,
          completion_tokens: 1,
          total_tokens: 51,
          prompt_tokens_details: { cached_tokens: 0 },
          completion_tokens_details: { reasoning_tokens: 0 },
        },
      },
    };
  };
}

/**
 * Anthropic Messages (`POST /v1/messages`) answering a forced tool call with a `tool_use`
 * block whose input gives `weights[i]` to the i-th property of the tool's input schema.
 */
export function anthropicToolUseHandler(weights: number[]): Handler {
  return (request) => {
    if (request.method !== "POST" || request.path !== "/v1/messages") {
      return { status: 404, body: { type: "error", error: { type: "not_found_error", message: "Unknown path" } } };
    }
    const body = request.body as {
      model: string;
      tools?: { name: string; input_schema: { properties: Record<string, unknown> } }[];
    };
    const tool = body.tools?.[0];
    const input: Record<string, number> = {};
    Object.keys(tool?.input_schema.properties ?? {}).forEach((field, index) => {
      input[field] = weights[index] ?? 0;
    });
    return {
      body: {
        id: "msg_mock",
        type: "message",
        role: "assistant",
        model: body.model,
        content: [{ type: "tool_use", id: "toolu_mock", name: tool?.name ?? "tool", input }],
        stop_reason: "tool_use",
        stop_sequence: null,
        usage: { input_tokens: 40, output_tokens: 12, cache_creation_input_tokens: 0, cache_read_input_tokens: 0 },
      },
    };
  };
}

/**
 * A native System One provider (`POST /v1/systemone`): answers every question (noul 0.25,
 * first choice, score 1) with usage, as the decision contract defines.
 */
export function systemOneHandler(): Handler {
  return (request) => {
    if (request.method !== "POST" || request.path !== "/v1/systemone") {
      return { status: 404, body: { error: { message: "Unknown path" } } };
    }
    const body = request.body as { model: string; questions: Record<string, { type: string; criteria?: unknown }> };
    // fromEntries keeps a question named `__proto__` as a key (assignment would set the prototype).
    const answers = Object.fromEntries(
      Object.entries(body.questions).map(([key, question]) => [
        key,
        question.type === "noul"
          ? { type: "noul", noul: 0.25 }
          : question.type === "choice"
            ? { type: "choice", choice: Object.keys(question.criteria as object)[0] }
            : { type: "score", score: 1 },
      ]),
    );
    return {
      body: { answers, model: body.model, usage: { input_tokens: 30, output_tokens: 3, total_tokens: 33 } },
    };
  };
}
