import { GatewayError } from "@gateway/errors";
import type { NormalizedUsage } from "@gateway/contracts";
import type { SseEvent } from "./provider-adapter.js";
import type {
  SseEventController,
  SseEventTransformer,
} from "./translation/index.js";
import { tryParseJson } from "./upstream-call.js";

/** Characters per token assumed by the partial-usage estimate (OpenAI's rule of thumb for English text). */
export const estimatedCharactersPerToken = 4;

/** Options of {@link translateUpstreamStream}. */
export interface TranslateUpstreamStreamOptions {
  /** The upstream events, parsed (`parseSseStream`); stopping iteration early aborts the upstream request. */
  source: AsyncIterable<SseEvent>;
  /** The stream translator (`createAnthropicToChatStream` or `createChatToAnthropicStream`). */
  transformer: SseEventTransformer;
  /** Characters of the upstream request's prompt; read only when an estimate of input tokens is needed. */
  promptCharacters: () => number;
}

/** A translated stream and its running usage. */
export interface TranslatedUpstreamStream {
  events: AsyncIterable<SseEvent>;
  usage: () => NormalizedUsage;
}

/**
 * Runs a stream translator over upstream events, yielding each translated event as soon as the
 * upstream event that produced it arrived (never buffered).
 *
 * - An upstream failure mid-stream (read error, timeout, in-stream error event, truncation)
 *   ends the output with the protocol's error event, produced by the translator, and the
 *   iteration ends normally. A caller disconnect (`client_cancelled`) is rethrown instead:
 *   nobody is left to read an error event, and the consumer must see the cancellation.
 * - Stopping the iteration early, and the translator finishing, close the upstream source.
 * - `usage()`: once the output has completed (`[DONE]` or `message_stop`), exactly what the
 *   provider reported. Before that (a disconnect or a failure mid-stream) the provider's numbers
 *   are partial (Anthropic reports input at the start and output at the end; OpenAI reports
 *   everything at the end), so output tokens are at least the streamed text and tool-argument
 *   characters / 4, and, when the provider started answering without reporting input, input
 *   tokens are estimated as the prompt's characters / 4. A disconnect is therefore never free.
 */
export function translateUpstreamStream(options: TranslateUpstreamStreamOptions): TranslatedUpstreamStream {
  const { source, transformer } = options;
  let upstreamStarted = false;
  let completed = false;
  let outputCharacters = 0;
  let promptCharacters: number | undefined;

  function countDelta(event: SseEvent): void {
    // Both directions have Anthropic `content_block_delta` events on one side (upstream for
    // Anthropic -> chat, output for chat -> Anthropic); OpenAI events never carry that name.
    if (event.event !== "content_block_delta") return;
    const payload = tryParseJson(event.data) as { delta?: { text?: unknown; partial_json?: unknown } } | undefined;
    const delta = payload?.delta;
    if (typeof delta?.text === "string") outputCharacters += delta.text.length;
    else if (typeof delta?.partial_json === "string") outputCharacters += delta.partial_json.length;
  }

  const queue: SseEvent[] = [];
  const controller: SseEventController = {
    enqueue(event) {
      countDelta(event);
      if (event.data === "[DONE]" || event.event === "message_stop") completed = true;
      queue.push(event);
    },
  };

  async function* run(): AsyncGenerator<SseEvent> {
    transformer.start(controller);
    yield* queue.splice(0);
    try {
      for await (const event of source) {
        upstreamStarted = true;
        countDelta(event);
        transformer.transform(event, controller);
        yield* queue.splice(0);
        if (transformer.finished) return;
      }
    } catch (error) {
      if (GatewayError.isInstance(error) && error.code === "client_cancelled") throw error;
      transformer.fail(error, controller);
      yield* queue.splice(0);
      return;
    }
    transformer.flush(controller);
    yield* queue.splice(0);
  }

  function usage(): NormalizedUsage {
    const reported = transformer.usage();
    if (completed) return reported;
    const estimatedOutput = Math.ceil(outputCharacters / estimatedCharactersPerToken);
    const reportedInput = reported.inputTokens + reported.cacheReadTokens + reported.cacheWriteTokens;
    let inputTokens = reported.inputTokens;
    if (reportedInput === 0 && upstreamStarted) {
      promptCharacters ??= options.promptCharacters();
      inputTokens = Math.ceil(promptCharacters / estimatedCharactersPerToken);
    }
    return { ...reported, inputTokens, outputTokens: Math.max(reported.outputTokens, estimatedOutput) };
  }

  return { events: run(), usage };
}
