import { z } from "zod";
import { decisionContentSchema } from "./decision-content-schema.js";
import { decisionLimits } from "./decision-limits.js";
import { decisionQuestionSchema } from "./decision-question-schema.js";
import { inPlaceRecordSchema } from "./in-place-record-schema.js";

const { minQuestions, maxQuestions, minModelLength, maxModelLength } = decisionLimits;

/** A field that caps output tokens: it must be absent, because decision output cannot be capped. */
function outputCapField(name: string) {
  return z
    .never({ error: `\`${name}\` is not supported by decisions: output-token caps must be absent.` })
    .optional();
}

const { $schema: _questionDialect, ...questionJsonSchema } = z.toJSONSchema(decisionQuestionSchema, { io: "input", unrepresentable: "any" });

/**
 * The questions of a request by name, checked in place: every own key is a question, `__proto__`
 * and `constructor` included (each is answered under its own key like any other).
 */
const questionsSchema = inPlaceRecordSchema({
  what: "questions",
  minimum: minQuestions,
  maximum: maxQuestions,
  valueSchema: decisionQuestionSchema,
  valueJsonSchema: questionJsonSchema,
});

/**
 * The body of `POST /v1/systemone`. Additional properties are allowed (and preserved, so native
 * providers receive the request as sent).
 */
export const decisionRequestSchema = z.looseObject({
  model: z
    .string()
    .min(minModelLength, { error: `model must be ${minModelLength} to ${maxModelLength} characters long.` })
    .max(maxModelLength, { error: `model must be ${minModelLength} to ${maxModelLength} characters long.` }),
  state: decisionContentSchema,
  questions: questionsSchema,
  stream: z.literal(false, { error: "Decisions do not stream: `stream` may only be `false`." }).optional(),
  max_tokens: outputCapField("max_tokens"),
  max_output_tokens: outputCapField("max_output_tokens"),
  max_completion_tokens: outputCapField("max_completion_tokens"),
});

/** A validated decision request. */
export type DecisionRequest = z.output<typeof decisionRequestSchema>;
