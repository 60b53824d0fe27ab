import { GatewayError } from "@gateway/errors";
import type { DecisionRequest } from "./decision-contract.js";

/** Request properties a translated provider understands; any other one is an extension. */
export const translatableRequestProperties: readonly string[] = ["model", "state", "questions", "stream"];

/** Question properties a translated provider understands; any other one is an extension. */
export const translatableQuestionProperties: readonly string[] = ["type", "instructions", "criteria"];

/**
 * Rejects what a translated (chat-based) provider cannot represent, before any provider call:
 * request properties other than `model`, `state`, `questions`, `stream`; question properties
 * other than `type`, `instructions`, `criteria`; score questions with an object rubric.
 * No extension is silently ignored. Throws 400 `unsupported_feature` naming the property in
 * `param` (`metadata`, `questions.q1.weight`, `questions.q1.criteria`).
 */
export function checkTranslatableDecision(request: DecisionRequest, provider: string): void {
  for (const property of Object.keys(request)) {
    if (!translatableRequestProperties.includes(property)) {
      throw unsupported(property, `The request property '${property}' cannot be represented by the translated provider '${provider}'.`);
    }
  }
  for (const [name, question] of Object.entries(request.questions)) {
    for (const property of Object.keys(question)) {
      if (!translatableQuestionProperties.includes(property)) {
        throw unsupported(
          `questions.${name}.${property}`,
          `The question property '${property}' of '${name}' cannot be represented by the translated provider '${provider}'.`,
        );
      }
    }
    if (question.type === "score" && !Array.isArray(question.criteria)) {
      throw unsupported(
        `questions.${name}.criteria`,
        `The score question '${name}' uses an object rubric, which needs a provider with native decision support ('${provider}' is translated).`,
      );
    }
  }
}

function unsupported(param: string, message: string): GatewayError {
  return new GatewayError("unsupported_feature", { message, param, retryable: true });
}
