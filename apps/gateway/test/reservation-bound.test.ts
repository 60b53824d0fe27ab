import type { ControlPlaneSnapshot } from "@gateway/contracts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createGatewayTestSnapshot, otherProjectApiKey, testApiKey } from "./support/create-gateway-test-snapshot.js";
import { type TestGateway, startTestGateway } from "./support/start-test-gateway.js";
import { type WireProvider, openAiHandler, startWireProvider } from "./support/wire-format-providers.js";

/**
 * Hard budgets reserve what the provider bills (issue 24): an image counts by its provider's rule,
 * so a budget that admits a text call refuses the same call with an image; a request whose cost
 * has no bound is refused with 424 `hard_budget_unbounded_request` in the route's error body.
 */
let openai: WireProvider;
let gateway: TestGateway;
let baseSnapshot: ControlPlaneSnapshot;

/** $0.005 on the main project: GPT-4o mini (connection price $0.15 / $0.60 per million tokens). */
const budgetMicros = 5_000;

beforeAll(async () => {
  openai = await startWireProvider(openAiHandler());
  baseSnapshot = createGatewayTestSnapshot(
    { openai: openai.url },
    {
      budgets: [
        { id: "bud_hard", organizationId: "org_1", name: "project cap", scope: "project", scopeId: "prj_main", amountMicros: budgetMicros, period: "month", mode: "hard", thresholds: [] },
      ],
    },
  );
  gateway = await startTestGateway(baseSnapshot);
});

afterAll(async () => {
  await gateway?.close();
  await openai?.close();
});

async function post(path: string, body: unknown, apiKey = testApiKey) {
  const response = await fetch(`${gateway.url}${path}`, {
    method: "POST",
    headers: { authorization: `Bearer ${apiKey}`, "content-type": "application/json", "anthropic-version": "2023-06-01" },
    body: JSON.stringify(body),
  });
  return { status: response.status, requestId: response.headers.get("x-request-id"), body: (await response.json()) as any };
}

const question = (content: unknown) => ({ model: "openai-mock/openai/gpt-4o-mini", max_tokens: 100, messages: [{ role: "user", content }] });

describe("hard budget reservations", () => {
  it("counts an image by GPT-4o mini's rule: the text call is admitted, the same call with an image of unknown size is not", async () => {
    const text = await post("/v1/chat/completions", question("What is in the picture?"));
    expect(text.status).toBe(200);
    // An image by URL counts at GPT-4o mini's maximum: 2833 + 8 x 5667 tokens, $0.0072 at $0.15 per million.
    const image = await post("/v1/chat/completions", question([{ type: "text", text: "What is in the picture?" }, { type: "image_url", image_url: { url: "http://127.0.0.1:9/cat.png" } }]));
    expect(image.status).toBe(424);
    expect(image.body.error.code).toBe("hard_budget_exceeded");
    expect(image.body.error.details.requested_micros).toBeGreaterThanOrEqual(Math.ceil((2833 + 8 * 5667) * 0.15));
    // At `detail: "low"` it costs 2833 tokens: within the budget.
    const low = await post("/v1/chat/completions", question([{ type: "image_url", image_url: { url: "http://127.0.0.1:9/cat.png", detail: "low" } }]));
    expect(low.status).toBe(200);
  });

  it("refuses a request whose cost has no bound with 424 hard_budget_unbounded_request, before any provider call", async () => {
    const before = openai.requests.length;
    const searching = await post("/v1/chat/completions", { ...question("Find the news."), web_search_options: {} });
    expect(searching.status).toBe(424);
    expect(searching.requestId).toMatch(/^req_/);
    expect(searching.body.error.code).toBe("hard_budget_unbounded_request");
    expect(searching.body.error.message).toContain("web_search_options");
    expect(searching.body.error.details).toEqual({ budget_id: "bud_hard", scope: "project" });
    expect((await gateway.eventFor(searching.requestId!)).budgetOutcome).toBe("rejected:bud_hard");

    // The messages route answers in Anthropic's error body.
    const withServers = await post("/v1/messages", { ...question("Use the tools."), mcp_servers: [{ type: "url", url: "http://127.0.0.1:9/mcp", name: "local" }] });
    expect(withServers.status).toBe(424);
    expect(withServers.body.type).toBe("error");
    expect(withServers.body.error.message).toContain("mcp_servers");
    expect(openai.requests.length).toBe(before);

    // A caller without a hard budget is not refused for it.
    const other = await post("/v1/chat/completions", { ...question("Find the news."), web_search_options: {} }, otherProjectApiKey);
    expect(other.status).toBe(200);
  });

  it("bounds a call without an output cap by the model's limits from the built-in table when the connection's price has none", async () => {
    const uncapped = await post("/v1/chat/completions", { model: "openai-mock/openai/gpt-4o-mini", messages: [{ role: "user", content: "Hi" }] });
    // 16,384 output tokens at $0.60 per million reserve $0.0098: over the $0.005 budget, but bounded (not unbounded).
    expect(uncapped.status).toBe(424);
    expect(uncapped.body.error.code).toBe("hard_budget_exceeded");
  });
});
