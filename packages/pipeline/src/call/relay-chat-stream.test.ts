import { compileGuardrails, parseGuardrailsConfig } from "@gateway/policy-engine";
import type { SseEvent } from "@gateway/provider-adapters";
import { describe, expect, it } from "vitest";
import { createCallLifetime } from "./call-lifetime.js";
import { type StreamOutcome, relayChatStream } from "./relay-chat-stream.js";

const redactEmails = compileGuardrails(
  parseGuardrailsConfig({ rules: [{ type: "pii", action: "redact", detectors: ["email"], appliesTo: "output" }] })!,
);
const blockTerm = compileGuardrails(
  parseGuardrailsConfig({ rules: [{ type: "blocked_terms", name: "codename", action: "block", terms: ["Falcon"], appliesTo: "output" }] })!,
);

function anthropicText(index: number, text: string): SseEvent {
  return { event: "content_block_delta", data: JSON.stringify({ type: "content_block_delta", index, delta: { type: "text_delta", text } }) };
}
const named = (type: string, extra: Record<string, unknown> = {}): SseEvent => ({ event: type, data: JSON.stringify({ type, ...extra }) });
const chatChunk = (content: string | null, finish: string | null = null): SseEvent => ({
  data: JSON.stringify({ id: "c1", object: "chat.completion.chunk", created: 1, model: "m", choices: [{ index: 0, delta: content === null ? {} : { content }, finish_reason: finish }] }),
});

async function* from(events: SseEvent[], onClose?: () => void): AsyncGenerator<SseEvent> {
  try {
    for (const event of events) yield event;
  } finally {
    onClose?.();
  }
}

async function relay(events: AsyncIterable<SseEvent>, options: Partial<Parameters<typeof relayChatStream>[0]> & { format: "openai" | "anthropic" }) {
  let ended: StreamOutcome | null = null;
  const output: SseEvent[] = [];
  const stream = relayChatStream({
    events,
    requestId: "req_1",
    guardrails: null,
    captureText: true,
    lifetime: createCallLifetime({ deadline: Date.now() + 10_000 }),
    onEnd: (outcome) => void (ended = outcome),
    ...options,
  });
  for await (const event of stream) output.push(event);
  return { output, outcome: ended as StreamOutcome | null };
}

describe("relayChatStream", () => {
  it("passes events through unchanged without output rules, and reports a completed stream", async () => {
    const events = [named("message_start", { message: {} }), named("ping"), anthropicText(0, "Hi there"), named("content_block_stop", { index: 0 }), named("message_stop")];
    const { output, outcome } = await relay(from(events), { format: "anthropic" });
    expect(output).toEqual(events);
    expect(outcome).toMatchObject({ completed: true, error: null, outputCharacters: 8, text: "Hi there" });
  });

  it("Anthropic: holds text back for the scanner and releases it in one extra text_delta before content_block_stop", async () => {
    const events = [named("message_start", { message: {} }), anthropicText(0, "Mail jane"), anthropicText(0, ".doe@example.com now"), named("content_block_stop", { index: 0 }), named("message_stop")];
    const { output, outcome } = await relay(from(events), { format: "anthropic", guardrails: redactEmails });
    const texts = output.filter((event) => event.event === "content_block_delta").map((event) => JSON.parse(event.data).delta.text as string);
    expect(texts.join("")).toBe("Mail [REDACTED:email] now");
    expect(output.map((event) => event.event)).toEqual(["message_start", "content_block_delta", "content_block_delta", "content_block_delta", "content_block_stop", "message_stop"]);
    expect(outcome?.text).toBe("Mail [REDACTED:email] now");
  });

  it("OpenAI: a blocking output rule ends the stream with the error chunk and closes the upstream", async () => {
    let closed = false;
    const events = [chatChunk("The code name is Fal"), chatChunk("con, sadly."), chatChunk(null, "stop"), { data: "[DONE]" }];
    const { output, outcome } = await relay(from(events, () => void (closed = true)), { format: "openai", guardrails: blockTerm });
    const last = JSON.parse(output.at(-1)!.data);
    expect(last.error).toMatchObject({ code: "guardrail_blocked" });
    expect(output.map((event) => event.data).join("")).not.toContain("Falcon");
    expect(closed).toBe(true);
    expect(outcome?.error?.code).toBe("guardrail_blocked");
  });

  it("a read failure after the start ends with the protocol error event (Anthropic body on Anthropic streams)", async () => {
    async function* failing(): AsyncGenerator<SseEvent> {
      yield named("message_start", { message: {} });
      throw new Error("socket hang up");
    }
    const { output, outcome } = await relay(failing(), { format: "anthropic" });
    expect(output.at(-1)?.event).toBe("error");
    expect(JSON.parse(output.at(-1)!.data)).toMatchObject({ type: "error", error: { type: "api_error" }, request_id: "req_1" });
    expect(outcome?.error?.code).toBe("internal_error");
  });

  it("a stream that ends without its terminal event is reported as failed", async () => {
    const { output, outcome } = await relay(from([chatChunk("Hel")]), { format: "openai" });
    expect(JSON.parse(output.at(-1)!.data).error.code).toBe("upstream_error");
    expect(outcome).toMatchObject({ completed: false, outputCharacters: 3 });
  });

  it("a consumer that stops early (or never starts) closes the upstream and ends as client_cancelled", async () => {
    let closed = false;
    let ended: StreamOutcome | null = null;
    const lifetime = createCallLifetime({ deadline: Date.now() + 10_000 });
    const stream = relayChatStream({
      events: from([chatChunk("a"), chatChunk("b"), chatChunk(null, "stop"), { data: "[DONE]" }], () => void (closed = true)),
      format: "openai",
      requestId: "req_1",
      guardrails: null,
      captureText: false,
      lifetime,
      onEnd: (outcome) => void (ended = outcome),
    });
    for await (const _event of stream) break;
    expect(closed).toBe(true);
    expect(lifetime.signal.aborted).toBe(true);
    expect(ended).toMatchObject({ completed: false, outputCharacters: 1, error: { code: "client_cancelled" } });

    let neverStartedEnd: StreamOutcome | null = null;
    const unread = relayChatStream({
      events: from([chatChunk("a")]),
      format: "openai",
      requestId: "req_2",
      guardrails: null,
      captureText: false,
      lifetime: createCallLifetime({ deadline: Date.now() + 10_000 }),
      onEnd: (outcome) => void (neverStartedEnd = outcome),
    });
    await unread[Symbol.asyncIterator]().return?.();
    expect(neverStartedEnd).toMatchObject({ error: { code: "client_cancelled" } });
  });
});
