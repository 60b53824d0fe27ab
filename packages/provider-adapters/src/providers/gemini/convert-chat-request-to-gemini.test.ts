import { describe, expect, it } from "vitest";
import type { ChatRequest } from "../../chat-request.js";
import { convertChatRequestToGemini } from "./convert-chat-request-to-gemini.js";

const request = (fields: Partial<ChatRequest>): ChatRequest => ({ model: "gemini-2.5-flash", messages: [{ role: "user", content: "Hi" }], ...fields });

function refusal(fields: Partial<ChatRequest>): unknown {
  try {
    convertChatRequestToGemini(request(fields));
  } catch (error) {
    return error;
  }
  throw new Error("expected a refusal");
}

describe("convertChatRequestToGemini", () => {
  it("maps the generation settings, the tool choice modes and response formats", () => {
    const body = convertChatRequestToGemini(request({ max_tokens: 20, n: 2, presence_penalty: 0.5, logprobs: true, top_logprobs: 5, response_format: { type: "json_object" }, tool_choice: "none" }));
    expect(body.generationConfig).toEqual({ maxOutputTokens: 20, candidateCount: 2, presencePenalty: 0.5, responseLogprobs: true, logprobs: 5, responseMimeType: "application/json" });
    expect(body.toolConfig).toEqual({ functionCallingConfig: { mode: "NONE" } });
    expect(convertChatRequestToGemini(request({ tool_choice: "required" })).toolConfig).toEqual({ functionCallingConfig: { mode: "ANY" } });
    expect(convertChatRequestToGemini(request({ reasoning_effort: "none" })).generationConfig).toEqual({ thinkingConfig: { thinkingBudget: 0 } });
  });

  it("keeps the conversation's order: system instructions apart, assistant turns as model, consecutive turns merged", () => {
    const body = convertChatRequestToGemini(request({
      messages: [
        { role: "system", content: "Rule one." },
        { role: "developer", content: [{ type: "text", text: "Rule two." }] },
        { role: "user", content: "Hi" },
        { role: "user", content: [{ type: "input_audio", input_audio: { data: "AAAA", format: "wav" } }] },
        { role: "assistant", content: "Hello" },
        { role: "user", content: "Bye" },
      ],
    }));
    expect(body.systemInstruction).toEqual({ parts: [{ text: "Rule one." }, { text: "Rule two." }] });
    expect(body.contents).toEqual([
      { role: "user", parts: [{ text: "Hi" }, { inlineData: { mimeType: "audio/wav", data: "AAAA" } }] },
      { role: "model", parts: [{ text: "Hello" }] },
      { role: "user", parts: [{ text: "Bye" }] },
    ]);
  });

  it("reduces a tool's schema to Gemini's keywords (annotations and unknown validation dropped) and refuses them when strict", () => {
    const parameters = { type: "object", properties: { when: { type: "string", format: "date-time", pattern: "^2", examples: ["2025"] } }, definitions: { x: { type: "string" } } };
    const body = convertChatRequestToGemini(request({ tools: [{ type: "function", function: { name: "f", parameters } }] }));
    expect((body.tools as any)[0].functionDeclarations[0].parametersJsonSchema).toEqual({ type: "object", properties: { when: { type: "string", format: "date-time" } }, $defs: { x: { type: "string" } } });
    expect(refusal({ tools: [{ type: "function", function: { name: "f", parameters, strict: true } }] })).toMatchObject({ code: "unsupported_feature", param: "tools[0].function.parameters.properties.when.pattern" });
  });

  it("refuses unknown fields, unrepresentable values and tool results that answer no call", () => {
    expect(refusal({ audio: { voice: "x" } })).toMatchObject({ code: "unsupported_feature", param: "audio" });
    expect(refusal({ store: true })).toMatchObject({ code: "unsupported_feature", param: "store" });
    expect(refusal({ stop: ["a", "b", "c", "d", "e", "f"] })).toMatchObject({ code: "unsupported_feature", param: "stop" });
    expect(refusal({ reasoning_effort: "extreme" })).toMatchObject({ code: "unsupported_feature", param: "reasoning_effort" });
    expect(refusal({ messages: [{ role: "user", content: "Hi", name: "ann" }] as ChatRequest["messages"] })).toMatchObject({ code: "unsupported_feature", param: "messages[0].name" });
    expect(refusal({ messages: [{ role: "tool", tool_call_id: "nope", content: "x" }] })).toMatchObject({ code: "invalid_request", param: "messages[0].tool_call_id" });
    expect(refusal({ messages: [{ role: "system", content: "Only rules." }] })).toMatchObject({ code: "invalid_request", param: "messages" });
  });
});
