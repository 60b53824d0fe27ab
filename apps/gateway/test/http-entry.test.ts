import { type Server, createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type GatewayRequestContext, createGatewayHandler } from "../src/create-gateway-handler.js";
import { createGatewayTestSnapshot, testApiKey } from "./support/create-gateway-test-snapshot.js";
import { type TestGateway, startTestGateway } from "./support/start-test-gateway.js";

let gateway: TestGateway;
let hooked: Server;
let hookedUrl: string;
const seen: { url: string; requestId: string }[] = [];

beforeAll(async () => {
  gateway = await startTestGateway(createGatewayTestSnapshot({}));
  // The same runtime's dependencies behind a second handler with a hook, as a metrics or log step would be added.
  const handler = createGatewayHandler(gateway.runtime.dependencies, {
    hooks: [(request, _response, context: GatewayRequestContext) => void seen.push({ url: request.url ?? "", requestId: context.requestId })],
  });
  hooked = createServer(handler).listen(0, "127.0.0.1");
  await new Promise<void>((resolve) => hooked.once("listening", () => resolve()));
  hookedUrl = `http://127.0.0.1:${(hooked.address() as AddressInfo).port}`;
});

afterAll(async () => {
  hooked?.closeAllConnections();
  await new Promise<void>((resolve) => hooked?.close(() => resolve()));
  await gateway?.close();
});

const chat = { model: "demo/demo/decider", messages: [{ role: "user", content: "Hi" }] };

describe("the gateway's HTTP entry", () => {
  it.each(["/v1/chat/completions", "/V1/Chat/Completions", "/v1/chat/completions/", "/v1/chat/completions?trace=1"])(
    "routes %s and runs every hook on it first, with the request's id",
    async (path) => {
      const response = await fetch(`${hookedUrl}${path}`, {
        method: "POST",
        headers: { "content-type": "application/json", authorization: `Bearer ${testApiKey}` },
        body: JSON.stringify(chat),
      });
      expect(response.status).toBe(200);
      const requestId = response.headers.get("x-request-id");
      expect(seen.at(-1)).toEqual({ url: path, requestId });
    },
  );

  it("answers an unknown route with the gateway error body and x-request-id (hooks ran too)", async () => {
    const response = await fetch(`${hookedUrl}/v1/nothing-here`, { method: "POST" });
    expect(response.status).toBe(404);
    expect(response.headers.get("x-request-id")).toMatch(/^req_/);
    expect(await response.json()).toMatchObject({ error: { code: "not_found" }, request_id: response.headers.get("x-request-id") });
    expect(seen.at(-1)?.url).toBe("/v1/nothing-here");
  });

  it("answers a method the route does not serve with 404, not a hang", async () => {
    const response = await fetch(`${gateway.url}/v1/chat/completions`, { method: "GET" });
    expect(response.status).toBe(404);
    expect(((await response.json()) as { error: { code: string } }).error.code).toBe("not_found");
  });

  it("lists the routes it serves", () => {
    expect([...gateway.runtime.handler.routes].sort()).toEqual([
      "DELETE /mcp",
      "DELETE /v1/responses/:id",
      "GET /.well-known/oauth-protected-resource",
      "GET /.well-known/oauth-protected-resource/mcp",
      "GET /mcp",
      "GET /openapi.json",
      "GET /v1/models",
      "GET /v1/responses/:id",
      "GET /v1/responses/:id/input_items",
      "POST /mcp",
      "POST /v1/chat/completions",
      "POST /v1/embeddings",
      "POST /v1/messages",
      "POST /v1/messages/count_tokens",
      "POST /v1/responses",
      "POST /v1/systemone",
    ]);
  });
});
