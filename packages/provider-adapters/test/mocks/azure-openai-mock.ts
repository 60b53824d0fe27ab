import { createServer, type IncomingHttpHeaders, type ServerResponse } from "node:http";
import type { AddressInfo, Socket } from "node:net";

/** A request as the Azure OpenAI mock received it. */
export interface AzureMockRequest {
  method: string;
  /** The path without the query. */
  path: string;
  query: URLSearchParams;
  headers: IncomingHttpHeaders;
  body: any;
  rawBody: string;
}

/** Options of {@link startAzureOpenAiMock}. */
export interface AzureOpenAiMockOptions {
  /** The resource's `api-key`. */
  apiKey: string;
  /** Deployment name -> the model it runs. */
  deployments: Record<string, string>;
  /** Entra ID app registration the mock's token endpoint accepts (`POST /<tenant>/oauth2/v2.0/token`). */
  entra?: { tenantId: string; clientId: string; clientSecret: string; expiresInSeconds?: number };
}

/** A local server speaking Azure OpenAI's data-plane wire format (and Entra ID's token endpoint). */
export interface AzureOpenAiMock {
  /** The resource endpoint (`http://127.0.0.1:<port>`), also the Entra authority host. */
  url: string;
  requests: AzureMockRequest[];
  /** Access tokens issued so far. */
  issuedTokens: string[];
  close(): Promise<void>;
}

const supportedApiVersions = /^\d{4}-\d{2}-\d{2}(-preview)?$/;
const promptFilterResults = [
  {
    prompt_index: 0,
    content_filter_results: {
      hate: { filtered: false, severity: "safe" },
      self_harm: { filtered: false, severity: "safe" },
      sexual: { filtered: false, severity: "safe" },
      violence: { filtered: false, severity: "safe" },
      jailbreak: { filtered: false, detected: false },
    },
  },
];
const safeChoiceFilter = {
  hate: { filtered: false, severity: "safe" },
  self_harm: { filtered: false, severity: "safe" },
  sexual: { filtered: false, severity: "safe" },
  violence: { filtered: false, severity: "safe" },
};

/**
 * Starts the mock on 127.0.0.1, port 0. Deployments API: `/openai/deployments/<deployment>/
 * {chat/completions,embeddings}?api-version=` (the model named by the path); v1 API:
 * `/openai/v1/{chat/completions,embeddings,responses,models}` (the deployment in `model`).
 * Auth: `api-key`, or `Authorization: Bearer` with a token it issued. A prompt containing
 * `FILTER_PROMPT` is refused as Azure's content filter refuses one (400 `content_filter` with
 * `innererror.content_filter_result`); `FILTER_OUTPUT` ends the answer with `finish_reason:
 * content_filter`; `CUT_STREAM` cuts a stream mid-answer; a request with tools calls the first tool. Chat answers carry
 * `prompt_filter_results` and per-choice `content_filter_results`; streams start with Azure's
 * choice-less prompt-filter chunk.
 */
export async function startAzureOpenAiMock(options: AzureOpenAiMockOptions): Promise<AzureOpenAiMock> {
  const requests: AzureMockRequest[] = [];
  const issuedTokens: string[] = [];
  const sockets = new Set<Socket>();
  const server = createServer(async (incoming, response) => {
    const chunks: Buffer[] = [];
    for await (const chunk of incoming) chunks.push(chunk as Buffer);
    const rawBody = Buffer.concat(chunks).toString("utf8");
    const url = new URL(incoming.url ?? "/", "http://mock");
    let body: any;
    try {
      body = rawBody === "" ? undefined : JSON.parse(rawBody);
    } catch {
      body = undefined;
    }
    const request: AzureMockRequest = { method: incoming.method ?? "", path: url.pathname, query: url.searchParams, headers: incoming.headers, body, rawBody };
    requests.push(request);
    handle(request, response);
  });
  server.on("connection", (socket) => {
    sockets.add(socket);
    socket.on("close", () => sockets.delete(socket));
  });

  function handle(request: AzureMockRequest, response: ServerResponse): void {
    const token = /^\/([^/]+)\/oauth2\/v2\.0\/token$/.exec(request.path);
    if (token !== null && request.method === "POST") return issueToken(token[1]!, request, response);
    if (!authorized(request.headers)) {
      return json(response, 401, {
        error: { code: "401", message: "Access denied due to invalid subscription key or wrong API endpoint. Make sure to provide a valid key for an active subscription and use a correct regional API endpoint for your resource." },
      });
    }
    const deploymentPath = /^\/openai\/deployments\/([^/]+)\/(chat\/completions|embeddings)$/.exec(request.path);
    if (deploymentPath !== null) {
      const version = request.query.get("api-version");
      if (version === null || !supportedApiVersions.test(version)) {
        return json(response, 404, { error: { code: "404", message: "Resource not found" } });
      }
      return operation(deploymentPath[2]!, decodeURIComponent(deploymentPath[1]!), request, response);
    }
    const v1Path = /^\/openai\/v1\/(chat\/completions|embeddings|responses)$/.exec(request.path);
    if (v1Path !== null) return operation(v1Path[1]!, String(request.body?.model ?? ""), request, response);
    if (request.method === "GET" && (request.path === "/openai/v1/models" || request.path === "/openai/models")) {
      return json(response, 200, { object: "list", data: Object.values(options.deployments).map((model) => ({ id: model, object: "model", created: 1_700_000_000, owned_by: "system" })) });
    }
    json(response, 404, { error: { code: "404", message: "Resource not found" } });
  }

  function authorized(headers: IncomingHttpHeaders): boolean {
    if (headers["api-key"] === options.apiKey) return true;
    const bearer = /^Bearer (.+)$/.exec(String(headers.authorization ?? ""));
    return bearer !== null && issuedTokens.includes(bearer[1]!);
  }

  function issueToken(tenant: string, request: AzureMockRequest, response: ServerResponse): void {
    const form = new URLSearchParams(request.rawBody);
    const entra = options.entra;
    if (String(request.headers["content-type"]).split(";")[0] !== "application/x-www-form-urlencoded" || form.get("grant_type") !== "client_credentials") {
      return json(response, 400, { error: "unsupported_grant_type", error_description: "AADSTS70003: The app requested an unsupported grant type." });
    }
    if (entra === undefined || tenant !== entra.tenantId) {
      return json(response, 400, { error: "invalid_request", error_description: `AADSTS90002: Tenant '${tenant}' not found.` });
    }
    if (form.get("client_id") !== entra.clientId || form.get("client_secret") !== entra.clientSecret) {
      return json(response, 401, { error: "invalid_client", error_description: "AADSTS7000215: Invalid client secret provided. Ensure the secret being sent in the request is the client secret value, not the client secret ID.", error_codes: [7000215] });
    }
    if (form.get("scope") !== "https://cognitiveservices.azure.com/.default") {
      return json(response, 400, { error: "invalid_scope", error_description: "AADSTS70011: The provided value for the input parameter 'scope' is not valid." });
    }
    const accessToken = `eyJ0eXAiOiJKV1QiLCJhbGciOiJSUzI1NiJ9.mock-${issuedTokens.length + 1}.signature`;
    issuedTokens.push(accessToken);
    const expiresIn = entra.expiresInSeconds ?? 3599;
    json(response, 200, { token_type: "Bearer", expires_in: expiresIn, ext_expires_in: expiresIn, access_token: accessToken });
  }

  function operation(kind: string, deployment: string, request: AzureMockRequest, response: ServerResponse): void {
    const model = options.deployments[deployment];
    if (model === undefined) {
      return json(response, 404, { error: { code: "DeploymentNotFound", message: "The API deployment for this resource does not exist. If you created the deployment within the last 5 minutes, please wait a moment and try again." } });
    }
    const text = JSON.stringify(request.body ?? {});
    if (text.includes("FILTER_PROMPT")) return json(response, 400, contentFilterError());
    if (kind === "embeddings") return embeddings(model, request, response);
    if (kind === "responses") return responses(model, request, response);
    chatCompletion(model, request, response, text.includes("FILTER_OUTPUT"));
  }

  function chatCompletion(model: string, request: AzureMockRequest, response: ServerResponse, filterOutput: boolean): void {
    const body = request.body ?? {};
    const tool = Array.isArray(body.tools) && body.tools.length > 0 ? body.tools[0].function.name : null;
    const finishReason = filterOutput ? "content_filter" : tool !== null ? "tool_calls" : "stop";
    const content = filterOutput ? "Partial answer" : tool !== null ? null : "Hello from Azure.";
    const usage = { prompt_tokens: 19, completion_tokens: 7, total_tokens: 26, prompt_tokens_details: { cached_tokens: 0 }, completion_tokens_details: { reasoning_tokens: 0 } };
    const id = "chatcmpl-AzUrE1d";
    const created = 1_732_000_000;
    const toolCall = { id: "call_azure_1", type: "function", function: { name: tool, arguments: '{"city":"Paris"}' } };
    const logprobs =
      body.logprobs === true
        ? { content: [{ token: "true", logprob: Math.log(0.8), bytes: [116, 114, 117, 101], top_logprobs: [{ token: "true", logprob: Math.log(0.8), bytes: [116, 114, 117, 101] }, { token: "false", logprob: Math.log(0.2), bytes: [102, 97, 108, 115, 101] }] }], refusal: null }
        : null;
    if (body.stream !== true) {
      return json(response, 200, {
        id,
        object: "chat.completion",
        created,
        model,
        system_fingerprint: "fp_azure",
        prompt_filter_results: promptFilterResults,
        choices: [
          {
            index: 0,
            finish_reason: finishReason,
            logprobs,
            message: { role: "assistant", content: logprobs === null ? content : "true", refusal: null, ...(tool === null ? {} : { tool_calls: [toolCall] }) },
            content_filter_results: filterOutput ? { ...safeChoiceFilter, violence: { filtered: true, severity: "high" } } : safeChoiceFilter,
          },
        ],
        usage,
      });
    }
    response.writeHead(200, { "content-type": "text/event-stream; charset=utf-8", "apim-request-id": "mock" });
    const send = (payload: unknown) => response.write(`data: ${JSON.stringify(payload)}\n\n`);
    const chunk = (choices: unknown[], extra: Record<string, unknown> = {}) => ({ id, object: "chat.completion.chunk", created, model, system_fingerprint: "fp_azure", choices, ...extra });
    send({ choices: [], created: 0, id: "", model: "", object: "", prompt_filter_results: promptFilterResults });
    send(chunk([{ index: 0, delta: { role: "assistant", content: "", refusal: null }, finish_reason: null, logprobs: null, content_filter_results: {} }]));
    if (tool !== null) {
      send(chunk([{ index: 0, delta: { tool_calls: [{ index: 0, id: toolCall.id, type: "function", function: { name: tool, arguments: "" } }] }, finish_reason: null, logprobs: null, content_filter_results: {} }]));
      send(chunk([{ index: 0, delta: { tool_calls: [{ index: 0, function: { arguments: toolCall.function.arguments } }] }, finish_reason: null, logprobs: null, content_filter_results: {} }]));
    } else {
      for (const piece of String(content).split(/(?<= )/)) {
        send(chunk([{ index: 0, delta: { content: piece }, finish_reason: null, logprobs: null, content_filter_results: safeChoiceFilter }]));
      }
    }
    // `CUT_STREAM`: the connection ends mid-answer (no finish reason, no `[DONE]`).
    if (JSON.stringify(body).includes("CUT_STREAM")) return void response.end();
    send(chunk([{ index: 0, delta: {}, finish_reason: finishReason, logprobs: null, content_filter_results: filterOutput ? { violence: { filtered: true, severity: "high" } } : {} }]));
    if (body.stream_options?.include_usage === true) send(chunk([], { usage }));
    response.end("data: [DONE]\n\n");
  }

  function embeddings(model: string, request: AzureMockRequest, response: ServerResponse): void {
    const inputs = Array.isArray(request.body?.input) ? request.body.input : [request.body?.input];
    const vector = [0.25, -0.5, 0.125];
    json(response, 200, {
      object: "list",
      model,
      // `encoding_format: "base64"` (the openai client's default): the float32 vector's bytes, little-endian.
      data: inputs.map((_: unknown, index: number) => ({
        object: "embedding",
        index,
        embedding: request.body?.encoding_format === "base64" ? Buffer.from(new Float32Array(vector).buffer).toString("base64") : vector,
      })),
      usage: { prompt_tokens: 4 * inputs.length, total_tokens: 4 * inputs.length },
    });
  }

  function responses(model: string, request: AzureMockRequest, response: ServerResponse): void {
    const id = "resp_azure_1";
    const message = { id: "msg_azure_1", type: "message", status: "completed", role: "assistant", content: [{ type: "output_text", text: "Hello from Azure Responses.", annotations: [], logprobs: [] }] };
    const usage = { input_tokens: 12, input_tokens_details: { cached_tokens: 0 }, output_tokens: 6, output_tokens_details: { reasoning_tokens: 0 }, total_tokens: 18 };
    const done = { id, object: "response", created_at: 1_732_000_000, status: "completed", model, output: [message], usage, error: null, incomplete_details: null, store: false };
    if (request.body?.stream !== true) return json(response, 200, done);
    response.writeHead(200, { "content-type": "text/event-stream; charset=utf-8" });
    const events: [string, Record<string, unknown>][] = [
      ["response.created", { response: { ...done, status: "in_progress", output: [], usage: null } }],
      ["response.output_item.added", { output_index: 0, item: { ...message, status: "in_progress", content: [] } }],
      ["response.content_part.added", { item_id: message.id, output_index: 0, content_index: 0, part: { type: "output_text", text: "", annotations: [] } }],
      ["response.output_text.delta", { item_id: message.id, output_index: 0, content_index: 0, delta: "Hello from Azure Responses." }],
      ["response.output_text.done", { item_id: message.id, output_index: 0, content_index: 0, text: "Hello from Azure Responses." }],
      ["response.content_part.done", { item_id: message.id, output_index: 0, content_index: 0, part: message.content[0] }],
      ["response.output_item.done", { output_index: 0, item: message }],
      ["response.completed", { response: done }],
    ];
    events.forEach(([type, payload], index) => response.write(`event: ${type}\ndata: ${JSON.stringify({ type, sequence_number: index, ...payload })}\n\n`));
    response.end();
  }

  server.listen(0, "127.0.0.1");
  await new Promise<void>((resolve) => server.once("listening", () => resolve()));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    issuedTokens,
    async close() {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** Azure's answer to a prompt its content filter refuses. */
function contentFilterError() {
  return {
    error: {
      message:
        "The response was filtered due to the prompt triggering Azure OpenAI's content management policy. Please modify your prompt and retry. To learn more about our content filtering policies please read our documentation: https://go.microsoft.com/fwlink/?linkid=2198766",
      type: null,
      param: "prompt",
      code: "content_filter",
      status: 400,
      innererror: {
        code: "ResponsibleAIPolicyViolation",
        content_filter_result: {
          hate: { filtered: false, severity: "safe" },
          jailbreak: { filtered: true, detected: true },
          self_harm: { filtered: false, severity: "safe" },
          sexual: { filtered: false, severity: "safe" },
          violence: { filtered: true, severity: "medium" },
        },
      },
    },
  };
}

function json(response: ServerResponse, status: number, body: unknown): void {
  response.writeHead(status, { "content-type": "application/json" });
  response.end(JSON.stringify(body));
}
