import type { HttpTransport } from "../http-transport.js";
import type { AdapterConnection } from "../provider-adapter.js";
import type { NormalizedUsage } from "@gateway/contracts";
import type { ProviderCallContext } from "../provider-adapter.js";
import type { DecisionPrompt } from "./decision-prompt.js";

/** What one provider call made for a decision yielded. */
export type AskOutcome =
  | { kind: "weights"; weights: Record<string, number>; usage: NormalizedUsage }
  | { kind: "refusal"; usage: NormalizedUsage };

/**
 * Asks a chat provider for decision probabilities. `logprobs`: one label token, weights read
 * from its top log-probabilities (variants merged). `stated`: one probability field per label.
 */
export type DecisionAsker =
  | {
      source: "logprobs";
      askLabel(prompt: DecisionPrompt, labels: readonly string[], context: ProviderCallContext): Promise<AskOutcome>;
    }
  | {
      source: "stated";
      askProbabilities(
        prompt: DecisionPrompt,
        fields: readonly { label: string; description: string }[],
        context: ProviderCallContext,
      ): Promise<AskOutcome>;
    };

/** Where and how a decision asker calls its provider's chat endpoint. */
export interface DecisionCall {
  transport: HttpTransport;
  connection: AdapterConnection;
  /** The chat endpoint: `{baseUrl}/chat/completions` (OpenAI-compatible) or `{baseUrl}/v1/messages` (Anthropic). */
  url: string;
  headers: Record<string, string>;
  model: string;
}
