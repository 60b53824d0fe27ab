import { describe, it } from "vitest";
import { type BedrockMockEvent, encodeBedrockEvent } from "../../../test/mocks/bedrock-mock.js";
import { converseEvents } from "../../../test/mocks/bedrock-mock-answers.js";
import { expectGolden, toWire } from "../../formats/__fixtures__/golden.js";
import { createChatStreamEncoder } from "../../formats/chat-completions/create-chat-stream-encoder.js";
import { createMessagesStreamEncoder } from "../../formats/messages/create-messages-stream-encoder.js";
import type { SseEvent } from "../../stream/sse-event.js";
import type { StreamRenderer } from "../../stream/stream-part.js";
import { decodeConverseStream } from "./decode-converse-stream.js";

// ConverseStream answers (binary event streams, as the mock encodes them) translated for chat
// completions and messages callers, compared with reviewed golden files (`UPDATE_GOLDEN=1`
// rewrites them).

const streams: Record<string, { events: BedrockMockEvent[]; cutAtByte?: number; corruptMessage?: number; jsonResponseTool?: string }> = {
  "parallel-tool-calls": {
    events: converseEvents(
      [
        { text: "Checking both cities." },
        { toolUse: { toolUseId: "tooluse_paris", name: "get_weather", input: { city: "Paris" } } },
        { toolUse: { toolUseId: "tooluse_oslo", name: "get_weather", input: { city: "Oslo" } } },
      ],
      "tool_use",
    ),
  },
  "in-stream-error": { events: [...converseEvents([{ text: "Partial answer" }], "end_turn").slice(0, 2), { exception: "throttlingException", message: "Too many tokens, please wait before trying again." }] },
  "model-stream-error": { events: [{ event: "messageStart", payload: { role: "assistant" } }, { exception: "modelStreamErrorException", message: "The model failed mid-answer." }] },
  "cut": { events: converseEvents([{ text: "An answer cut off in the middle of a frame" }], "end_turn"), cutAtByte: 400 },
  "corrupt-frame": { events: converseEvents([{ text: "Hello there" }], "end_turn"), corruptMessage: 2 },
  "json-response-tool": { events: converseEvents([{ toolUse: { toolUseId: "tooluse_json", name: "capital", input: { city: "Paris" } } }], "tool_use"), jsonResponseTool: "capital" },
  "max-tokens": { events: converseEvents([{ text: "A long answer that" }], "max_tokens") },
  "guardrail": { events: converseEvents([{ text: "Sorry, I cannot help with that." }], "guardrail_intervened") },
};

/** The stream's bytes in 7-byte chunks (frames split anywhere), cut or corrupted as asked. */
async function* bytes(name: string): AsyncGenerator<Uint8Array> {
  const stream = streams[name]!;
  const messages = stream.events.map(encodeBedrockEvent);
  if (stream.corruptMessage !== undefined) {
    const target = messages[stream.corruptMessage]!;
    target[target.length - 6] = target[target.length - 6]! ^ 0xff;
  }
  let all = Buffer.concat(messages);
  if (stream.cutAtByte !== undefined) all = all.subarray(0, stream.cutAtByte);
  for (let offset = 0; offset < all.length; offset += 7) yield all.subarray(offset, offset + 7);
}

async function render(name: string, renderer: StreamRenderer): Promise<SseEvent[]> {
  const stream = streams[name]!;
  const frames = decodeConverseStream(bytes(name), {
    id: null,
    model: "bedrock/anthropic/claude-sonnet-4-20250514-v1:0",
    provider: "bedrock",
    secrets: [],
    ...(stream.jsonResponseTool === undefined ? {} : { jsonResponseTool: stream.jsonResponseTool }),
  });
  const events: SseEvent[] = [];
  for await (const frame of frames) events.push(...renderer.render(frame));
  return events;
}

describe("ConverseStream -> caller streams (golden)", () => {
  it.each(Object.keys(streams))("%s", async (name) => {
    const model = "bedrock/anthropic/claude-sonnet-4-20250514-v1:0";
    const chat = await render(name, createChatStreamEncoder({ model, requestId: "req_123", includeUsage: true, created: 1735689600 }));
    expectGolden(`../../providers/bedrock/__fixtures__/${name}.openai.sse`, toWire(chat));
    const messages = await render(name, createMessagesStreamEncoder({ model, requestId: "req_123" }));
    expectGolden(`../../providers/bedrock/__fixtures__/${name}.anthropic.sse`, toWire(messages));
  });
});
