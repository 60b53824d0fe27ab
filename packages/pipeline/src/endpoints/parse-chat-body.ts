import { fromZodError } from "@gateway/errors";
import { z } from "zod";
import { checkRequestNumberFields, chatCompletionsNumberFields, messagesNumberFields } from "./request-number-fields.js";

/** The wire format of a chat call: OpenAI chat completions or Anthropic messages. */
export type ChatFormat = "openai" | "anthropic";

/** A chat or messages body after the shape check: `model` and `messages`, every other field kept. */
export type ChatBody = Record<string, unknown> & { model: string; messages: unknown[] };

const chatBodySchema = z.looseObject({
  model: z.string().min(1),
  messages: z.array(z.unknown()),
  stream: z.boolean().nullish(),
});

/**
 * The validate stage of chat, messages and count_tokens calls: a light shape check (`model` a
 * non-empty string, `messages` an array, `stream` a boolean when present) and the bounds of the
 * format's number fields (`max_tokens`, `temperature`, …; see `request-number-fields.ts`).
 * Unknown fields pass through: native providers take them as they are, and the translators
 * refuse (400 `unsupported_feature`, naming the field) what they cannot represent. 400
 * `invalid_request` with `param` naming the field otherwise. Returns the body itself.
 */
export function parseChatBody(body: unknown, format: ChatFormat): ChatBody {
  const request = checkChatShape(body);
  checkRequestNumberFields(request, format === "openai" ? chatCompletionsNumberFields : messagesNumberFields);
  return request;
}

function checkChatShape(body: unknown): ChatBody {
  // Fast path (the hot path): the checks zod would make, without copying the body.
  if (typeof body === "object" && body !== null && !Array.isArray(body)) {
    const candidate = body as Record<string, unknown>;
    const stream = candidate.stream;
    if (
      typeof candidate.model === "string" &&
      candidate.model !== "" &&
      Array.isArray(candidate.messages) &&
      (stream === undefined || stream === null || typeof stream === "boolean")
    ) {
      return candidate as ChatBody;
    }
  }
  const result = chatBodySchema.safeParse(body);
  if (!result.success) throw fromZodError(result.error);
  // The body itself, not zod's copy (which would drop an own `__proto__` key).
  return body as ChatBody;
}
