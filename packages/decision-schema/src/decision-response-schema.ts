import { z } from "zod";
import { decisionAnswerSchema } from "./decision-answer-schema.js";
import { inPlaceRecordSchema } from "./in-place-record-schema.js";

const tokenCountSchema = z.number().int().min(0);

/**
 * Token usage of a decision, summed over the provider calls made for it. Additional properties
 * allowed; the details objects are free-form.
 */
export const decisionUsageSchema = z.looseObject({
  input_tokens: tokenCountSchema.optional(),
  output_tokens: tokenCountSchema.optional(),
  total_tokens: tokenCountSchema.optional(),
  input_tokens_details: z.looseObject({}).optional(),
  output_tokens_details: z.looseObject({}).optional(),
});

/** Token usage of a decision. */
export type DecisionUsage = z.output<typeof decisionUsageSchema>;

const { $schema: _answerDialect, ...answerJsonSchema } = z.toJSONSchema(decisionAnswerSchema, { io: "output", unrepresentable: "any" });

/** Answers by question key, checked in place: every own key is an answer, `__proto__` included. */
const answersSchema = inPlaceRecordSchema({ what: "answers", valueSchema: decisionAnswerSchema, valueJsonSchema: answerJsonSchema });

/**
 * The 200 body of `POST /v1/systemone`: one answer under each question key of the request.
 * Additional properties allowed. This schema checks shapes only; use `checkDecisionResponse`
 * to check the answers against the request.
 */
export const decisionResponseSchema = z.looseObject({
  answers: answersSchema,
  model: z.string().optional(),
  usage: decisionUsageSchema.optional(),
});

/** A decision response. */
export type DecisionResponse = z.output<typeof decisionResponseSchema>;
