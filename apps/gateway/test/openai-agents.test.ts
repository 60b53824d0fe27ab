import type { ControlPlaneSnapshot } from "@gateway/contracts";
import { Agent, OpenAIProvider, Runner, setTracingDisabled, tool } from "@openai/agents";
import OpenAI from "openai";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { createGatewayTestSnapshot, testApiKey } from "./support/create-gateway-test-snapshot.js";
import { type TestGateway, startTestGateway } from "./support/start-test-gateway.js";
import { type WireProvider, anthropicHandler, openAiHandler, responsesHandler, startWireProvider } from "./support/wire-format-providers.js";

// The agent framework runs unchanged; only its client points at the gateway. Tracing export is
// off so that it sends nothing anywhere but the gateway.
setTracingDisabled(true);

let responsesUpstream: WireProvider;
let chatUpstream: WireProvider;
let anthropicUpstream: WireProvider;
let gateway: TestGateway;
let runner: Runner;

beforeAll(async () => {
  responsesUpstream = await startWireProvider(responsesHandler());
  chatUpstream = await startWireProvider(openAiHandler());
  anthropicUpstream = await startWireProvider(anthropicHandler());
  const base = createGatewayTestSnapshot({ openai: chatUpstream.url, anthropic: anthropicUpstream.url });
  const snapshot: ControlPlaneSnapshot = {
    ...base,
    connections: [
      ...base.connections,
      {
        ...base.connections.find((connection) => connection.name === "openai-mock")!,
        id: "con_native",
        name: "openai-native",
        baseUrl: `${responsesUpstream.url}/v1`,
        responsesApi: true,
        models: ["openai/gpt-4.1-mini"],
        upstreamModelNames: { "openai/gpt-4.1-mini": "gpt-4.1-mini" },
      },
    ],
  };
  gateway = await startTestGateway(snapshot);
  const client = new OpenAI({ baseURL: `${gateway.url}/v1`, apiKey: testApiKey, maxRetries: 0 });
  runner = new Runner({ modelProvider: new OpenAIProvider({ openAIClient: client as never, useResponses: true }), tracingDisabled: true });
});

afterAll(async () => {
  await gateway?.close();
  await Promise.all([responsesUpstream?.close(), chatUpstream?.close(), anthropicUpstream?.close()]);
});

function weatherAgent(model: string, asked: string[]) {
  const getWeather = tool({
    name: "get_weather",
    description: "Weather of a city",
    parameters: z.object({ city: z.string() }),
    execute: async ({ city }) => {
      asked.push(city);
      return `21 degrees in ${city}`;
    },
  });
  return new Agent({ name: "Weather", instructions: "Answer weather questions with the tool.", model, tools: [getWeather] });
}

describe("@openai/agents (the OpenAI Agents SDK) with a function tool, unchanged, against the gateway", () => {
  it.each([
    ["native OpenAI Responses", "openai-native/openai/gpt-4.1-mini", "Hello from the Responses mock.", ["Paris"], () => responsesUpstream],
    ["translated to chat completions", "openai-mock/openai/gpt-4o-mini", "Hello from the OpenAI mock.", ["Paris", "Rome"], () => chatUpstream],
    ["translated to Anthropic", "anthropic-mock/anthropic/claude-sonnet-4", "Hello from the Anthropic mock.", ["Paris"], () => anthropicUpstream],
  ])("%s: the agent calls the tool, sends its result back and gets the final answer", async (_name, model, text, cities, upstream) => {
    const asked: string[] = [];
    const before = upstream().requests.length;
    const result = await runner.run(weatherAgent(model, asked), "What is the weather in Paris?");
    expect(asked).toEqual(cities);
    expect(result.finalOutput).toBe(text);
    expect(upstream().requests.length - before).toBe(2);
  });

  it("streamed, then continued from the gateway's stored response with previousResponseId", async () => {
    const asked: string[] = [];
    const agent = weatherAgent("openai-native/openai/gpt-4.1-mini", asked);
    const streamed = await runner.run(agent, "What is the weather in Paris?", { stream: true });
    let text = "";
    for await (const event of streamed.toTextStream()) text += event;
    await streamed.completed;
    expect(asked).toEqual(["Paris"]);
    expect(text).toBe("Hello from the Responses mock.");
    expect(streamed.lastResponseId).toMatch(/^resp_/);

    const followUp = await runner.run(agent, "And tomorrow?", { previousResponseId: streamed.lastResponseId! });
    expect(followUp.finalOutput).toBe("Hello from the Responses mock.");
    const upstreamInput = responsesUpstream.requests.at(-1)!.body.input as { type?: string; role?: string }[];
    // The follow-up's second turn: the gateway expanded the stored conversation (the earlier question,
    // call, output and answer), then the new question and this run's own call and output.
    expect(upstreamInput.map((item) => item.type ?? item.role)).toEqual(["user", "function_call", "function_call_output", "message", "user", "function_call", "function_call_output"]);
    expect(asked).toEqual(["Paris", "Paris"]);
  });
});
