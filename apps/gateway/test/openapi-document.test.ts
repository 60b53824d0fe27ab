import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createGatewayTestSnapshot } from "./support/create-gateway-test-snapshot.js";
import { type TestGateway, startTestGateway } from "./support/start-test-gateway.js";

let gateway: TestGateway;

beforeAll(async () => {
  gateway = await startTestGateway(createGatewayTestSnapshot({}));
});

afterAll(async () => {
  await gateway.close();
});

/** `METHOD path` of every route the gateway serves. */
function servedRoutes(): string[] {
  // The router's `:id` is OpenAPI's `{id}`.
  return [...gateway.runtime.handler.routes].map((route) => route.replace(/:([A-Za-z_]+)/g, "{$1}")).sort();
}

describe("GET /openapi.json", () => {
  it("serves an OpenAPI 3.1 document without authentication", async () => {
    const response = await fetch(`${gateway.url}/openapi.json`);
    expect(response.status).toBe(200);
    expect(response.headers.get("x-request-id")).toMatch(/^req_/);
    const document = (await response.json()) as { openapi: string; info: { title: string } };
    expect(document.openapi).toBe("3.1.0");
    expect(document.info.title).toContain("Gateway");
  });

  it("documents exactly the routes the app serves", async () => {
    const document = (await (await fetch(`${gateway.url}/openapi.json`)).json()) as { paths: Record<string, Record<string, unknown>> };
    const documented = Object.entries(document.paths)
      .flatMap(([path, operations]) => Object.keys(operations).map((method) => `${method.toUpperCase()} ${path}`))
      .sort();
    expect(documented).toEqual(servedRoutes());
  });

  it("describes the decision request with the contract's own JSON Schema", async () => {
    const document = (await (await fetch(`${gateway.url}/openapi.json`)).json()) as {
      components: { schemas: Record<string, { properties?: Record<string, unknown>; required?: string[] }> };
    };
    const decision = document.components.schemas.DecisionRequest!;
    expect(decision.required).toEqual(expect.arrayContaining(["model", "state", "questions"]));
    expect(Object.keys(decision.properties ?? {})).toEqual(expect.arrayContaining(["model", "state", "questions", "stream"]));
  });

  it("documents the bounds of the number fields the gateway checks", async () => {
    const document = (await (await fetch(`${gateway.url}/openapi.json`)).json()) as {
      components: { schemas: Record<string, { properties: Record<string, Record<string, any>>; required?: string[] }> };
    };
    const { ChatCompletionRequest: chat, MessagesRequest: messages, ResponsesRequest: responses, EmbeddingsRequest: embeddings } = document.components.schemas;
    const integerUpTo = (schema: Record<string, any> | undefined) => JSON.stringify(schema).includes('"maximum":2147483647') && JSON.stringify(schema).includes('"integer"');
    expect(integerUpTo(chat!.properties.max_tokens)).toBe(true);
    expect(integerUpTo(chat!.properties.max_completion_tokens)).toBe(true);
    expect(JSON.stringify(chat!.properties.temperature)).toContain('"maximum":2');
    expect(JSON.stringify(chat!.properties.logit_bias)).toContain('"minimum":-100');
    expect(messages!.required).toContain("max_tokens");
    expect(messages!.properties.max_tokens).toMatchObject({ type: "integer", minimum: 1, maximum: 2147483647 });
    expect(JSON.stringify(messages!.properties.temperature)).toContain('"maximum":1');
    expect(integerUpTo(responses!.properties.max_output_tokens)).toBe(true);
    expect(integerUpTo(embeddings!.properties.dimensions)).toBe(true);
  });
});
