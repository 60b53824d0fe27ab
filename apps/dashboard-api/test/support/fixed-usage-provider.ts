import { randomBytes } from "node:crypto";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";

/** A local OpenAI-compatible provider: 10 + 10 tokens per answer, or a 500 while `failing` is set. */
export interface FixedUsageProvider {
  /** Base URL of its `/v1` API. */
  url: string;
  server: Server;
  failing: boolean;
}

/** Starts a {@link FixedUsageProvider} on 127.0.0.1:0. */
export async function startFixedUsageProvider(): Promise<FixedUsageProvider> {
  const state = { failing: false };
  const server = createServer((request, response) => {
    request.resume();
    request.on("end", () => {
      if (state.failing) {
        response.writeHead(500, { "content-type": "application/json" }).end(JSON.stringify({ error: { message: "upstream broke", type: "server_error" } }));
        return;
      }
      const body = JSON.stringify({
        id: `chatcmpl-${randomBytes(4).toString("hex")}`,
        object: "chat.completion",
        created: 1_700_000_000,
        model: "fixed",
        choices: [{ index: 0, message: { role: "assistant", content: "ok", refusal: null }, logprobs: null, finish_reason: "stop" }],
        usage: { prompt_tokens: 10, completion_tokens: 10, total_tokens: 20 },
      });
      response.writeHead(200, { "content-type": "application/json", "content-length": Buffer.byteLength(body) }).end(body);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return Object.assign(state, { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`, server });
}
