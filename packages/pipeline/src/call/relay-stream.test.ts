import { compileGuardrails, parseGuardrailsConfig } from "@gateway/policy-engine";
import {
  type SseEvent,
  type StreamDecoder,
  type StreamFormat,
  chatCompletionsFormat,
  createStreamRenderer,
  decodeSseStream,
  formatOfStream,
} from "@gateway/provider-adapters";
import { describe, expect, it } from "vitest";
import { createCallLifetime } from "./call-lifetime.js";
import { type RelayStreamOptions, type StreamOutcome, relayStream } from "./relay-stream.js";

const redactEmails = compileGuardrails(
  parseGuardrailsConfig({ rules: [{ type: "pii", action: "redact", detectors: ["email"], appliesTo: "output" }] })!,
);
const blockTerm = compileGuardrails(
  parseGuardrailsConfig({ rules: [{ type: "blocked_terms", name: "codename", action: "block", terms: ["Falcon"], appliesTo: "output" }] })!,
);
const flagTerm = compileGuardrails(
  parseGuardrailsConfig({ rules: [{ type: "blocked_terms", name: "mentions-falcon", action: "flag", terms: ["Falcon"], appliesTo: "output" }] })!,
);

function anthropicText(index: number, text: string): SseEvent {
  return { event: "content_block_delta", data: JSON.stringify({ type: "content_block_delta", index, delta: { type: "text_delta", text } }) };
}
const named = (type: string, extra: Record<string, unknown> = {}): SseEvent => ({ event: type, data: JSON.stringify({ type, ...extra }) });
const messageStart = named("message_start", { message: { id: "msg_1", model: "claude", usage: { input_tokens: 7, output_tokens: 1 } } });
const textBlockStart = named("content_block_start", { index: 0, content_block: { type: "text", text: "" } });
const chatChunk = (delta: Record<string, unknown> | null, finish: string | null = null): SseEvent => ({
  data: JSON.stringify({ id: "c1", object: "chat.completion.chunk", created: 1, model: "m", choices: [{ index: 0, delta: delta ?? {}, finish_reason: finish }] }),
});
const chatText = (content: string) => chatChunk({ content });
const toolFragment = (index: number, fragment: Record<string, unknown>) => chatChunk({ tool_calls: [{ index, ...fragment }] });

async function* from(events: SseEvent[], onClose?: () => void): AsyncGenerator<SseEvent> {
  try {
    for (const event of events) yield event;
  } finally {
    onClose?.();
  }
}

/** Relays upstream events of `format` to a caller of the same format (native passthrough). */
async function relay(events: AsyncIterable<SseEvent>, format: StreamFormat, options: Partial<RelayStreamOptions> = {}) {
  let ended: StreamOutcome | null = null;
  const output: SseEvent[] = [];
  const decoder: StreamDecoder = formatOfStream[format].createStreamDecoder();
  const stream = relayStream({
    frames: decodeSseStream(events, decoder),
    renderer: createStreamRenderer({ from: format, to: format, requestId: "req_1", model: "m", includeUsage: true }),
    guardrails: null,
    captureText: true,
    lifetime: createCallLifetime({ deadline: Date.now() + 10_000 }),
    onEnd: (outcome) => void (ended = outcome),
    ...options,
  });
  for await (const event of stream) output.push(event);
  return { output, outcome: ended as StreamOutcome | null };
}

describe("relayStream", () => {
  it("passes the provider's events through unchanged without output rules, and reports a completed stream with its usage", async () => {
    const events = [messageStart, named("ping"), textBlockStart, anthropicText(0, "Hi there"), named("content_block_stop", { index: 0 }), named("message_stop")];
    const { output, outcome } = await relay(from(events), "anthropic-messages");
    expect(output).toEqual(events);
    expect(outcome).toMatchObject({ completed: true, error: null, outputCharacters: 8, text: "Hi there", usage: { inputTokens: 7, outputTokens: 1 } });
  });

  it("Anthropic: holds text back for the scanner and releases it in one extra text_delta before content_block_stop", async () => {
    const events = [messageStart, textBlockStart, anthropicText(0, "Mail jane"), anthropicText(0, ".doe@example.com now"), named("content_block_stop", { index: 0 }), named("message_stop")];
    const { output, outcome } = await relay(from(events), "anthropic-messages", { guardrails: redactEmails });
    const texts = output.filter((event) => event.event === "content_block_delta").map((event) => JSON.parse(event.data).delta.text as string);
    expect(texts.join("")).toBe("Mail [REDACTED:email] now");
    expect(output.map((event) => event.event)).toEqual([
      "message_start",
      "content_block_start",
      "content_block_delta",
      "content_block_delta",
      "content_block_delta",
      "content_block_stop",
      "message_stop",
    ]);
    expect(outcome?.text).toBe("Mail [REDACTED:email] now");
  });

  it("OpenAI: redacts across deltas; the provider's other fields stay as sent", async () => {
    const events = [chatChunk({ role: "assistant", content: "" }), chatText("write to jane.doe@exa"), chatText("mple.com please"), chatChunk(null, "stop"), { data: "[DONE]" }];
    const { output, outcome } = await relay(from(events), "openai-chat", { guardrails: redactEmails });
    const text = output
      .filter((event) => event.data !== "[DONE]")
      .map((event) => JSON.parse(event.data).choices[0]?.delta?.content ?? "")
      .join("");
    expect(text).toBe("write to [REDACTED:email] please");
    expect(output.every((event) => event.data === "[DONE]" || JSON.parse(event.data).id === "c1")).toBe(true);
    expect(outcome).toMatchObject({ completed: true, text: "write to [REDACTED:email] please" });
  });

  it("OpenAI: a blocking output rule ends the stream with the error chunk and closes the upstream", async () => {
    let closed = false;
    const events = [chatText("The code name is Fal"), chatText("con, sadly."), chatChunk(null, "stop"), { data: "[DONE]" }];
    const { output, outcome } = await relay(from(events, () => void (closed = true)), "openai-chat", { guardrails: blockTerm });
    const last = JSON.parse(output.at(-1)!.data);
    expect(last.error).toMatchObject({ code: "guardrail_blocked" });
    expect(output.map((event) => event.data).join("")).not.toContain("Falcon");
    expect(closed).toBe(true);
    expect(outcome?.error?.code).toBe("guardrail_blocked");
  });

  it("output guardrails see tool-call arguments: a flag rule records its name, a block rule ends the stream", async () => {
    const events = [
      toolFragment(0, { id: "call_1", type: "function", function: { name: "lookup", arguments: "" } }),
      toolFragment(0, { function: { arguments: '{"q":"Fal' } }),
      toolFragment(0, { function: { arguments: 'con"}' } }),
      chatChunk(null, "tool_calls"),
      { data: "[DONE]" },
    ];
    const flagged = await relay(from(events), "openai-chat", { guardrails: flagTerm });
    expect(flagged.outcome).toMatchObject({ completed: true, guardrailFlags: ["mentions-falcon"] });
    expect(flagged.output.at(-1)).toEqual({ data: "[DONE]" });

    const blocked = await relay(from(events), "openai-chat", { guardrails: blockTerm });
    expect(JSON.parse(blocked.output.at(-1)!.data).error.code).toBe("guardrail_blocked");
    expect(blocked.output.some((event) => JSON.parse(event.data === "[DONE]" ? "{}" : event.data).choices?.[0]?.finish_reason === "tool_calls")).toBe(false);
  });

  it("a read failure after the start ends with the protocol error event (Anthropic body on Anthropic streams)", async () => {
    async function* failing(): AsyncGenerator<SseEvent> {
      yield messageStart;
      throw new Error("socket hang up");
    }
    const { output, outcome } = await relay(failing(), "anthropic-messages");
    expect(output.at(-1)?.event).toBe("error");
    expect(JSON.parse(output.at(-1)!.data)).toMatchObject({ type: "error", error: { type: "api_error" }, request_id: "req_1" });
    expect(JSON.stringify(output)).not.toContain("socket hang up");
    expect(outcome?.error?.code).toBe("internal_error");
  });

  it("a stream that ends without its terminal event is reported as failed, with what it produced", async () => {
    const { output, outcome } = await relay(from([chatText("Hel")]), "openai-chat");
    expect(JSON.parse(output.at(-1)!.data).error.code).toBe("upstream_error");
    expect(outcome).toMatchObject({ completed: false, outputCharacters: 3 });
  });

  it("a consumer that stops early (or never starts) closes the upstream and ends as client_cancelled", async () => {
    let closed = false;
    let ended: StreamOutcome | null = null;
    const lifetime = createCallLifetime({ deadline: Date.now() + 10_000 });
    const options = (events: AsyncIterable<SseEvent>, onEnd: (outcome: StreamOutcome) => void, callLifetime = createCallLifetime({ deadline: Date.now() + 10_000 })) => ({
      frames: decodeSseStream(events, chatCompletionsFormat.createStreamDecoder()),
      renderer: createStreamRenderer({ from: "openai-chat", to: "openai-chat", requestId: "req_1", model: "m" }),
      guardrails: null,
      captureText: false,
      lifetime: callLifetime,
      onEnd,
    });
    const stream = relayStream(options(from([chatText("a"), chatText("b"), chatChunk(null, "stop"), { data: "[DONE]" }], () => void (closed = true)), (outcome) => void (ended = outcome), lifetime));
    for await (const _event of stream) break;
    expect(closed).toBe(true);
    expect(lifetime.abort.aborted).toBe(true);
    expect(ended).toMatchObject({ completed: false, outputCharacters: 1, error: { code: "client_cancelled" } });

    let neverStartedEnd: StreamOutcome | null = null;
    const unread = relayStream(options(from([chatText("a")]), (outcome) => void (neverStartedEnd = outcome)));
    await unread[Symbol.asyncIterator]().return?.();
    expect(neverStartedEnd).toMatchObject({ error: { code: "client_cancelled" } });
  });
});
