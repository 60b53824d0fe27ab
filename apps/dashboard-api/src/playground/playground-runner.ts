/** One server-sent event. */
export interface PlaygroundSseEvent {
  event?: string;
  data: string;
  id?: string;
}

/** What the pipeline answered for a playground chat. */
export type PlaygroundResult =
  | { kind: "json"; status: number; headers: Record<string, string>; body: unknown }
  | { kind: "stream"; status: number; headers: Record<string, string>; events: AsyncIterable<PlaygroundSseEvent> };

/** Input of a playground chat: one chat as the key `apiKeyId`, on behalf of `userId`. */
export interface PlaygroundChatInput {
  requestId: string;
  organizationId: string;
  apiKeyId: string;
  userId: string;
  /** The OpenAI chat-completions body (`model`, `messages`, `stream`, ...). */
  body: Record<string, unknown>;
  /** The dashboard request's headers (for X-Request-ID, X-Provider, ...). */
  headers: Record<string, string | string[] | undefined>;
  /** Aborted when the browser goes away. */
  signal: AbortSignal;
}

/**
 * Runs one chat through the gateway's data-plane pipeline (the same code path as
 * `POST /v1/chat/completions`): policies, guardrails, routing, limits, budgets and usage
 * attribution apply; the usage event records the user and the `playground` endpoint.
 */
export interface PlaygroundRunner {
  chat(input: PlaygroundChatInput): Promise<PlaygroundResult>;
}
