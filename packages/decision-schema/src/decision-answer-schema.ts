import { z } from "zod";
import { type CriterionValue, criterionValueJsonSchema, isCriterionValue } from "./decision-content-schema.js";
import { inPlaceRecordSchema } from "./in-place-record-schema.js";

/** A number in [0, 1]. */
const unitIntervalSchema = z.number().min(0).max(1);

/** Probabilities by label (choice name or score key), each in [0, 1]; checked in place. */
const probabilitiesSchema = inPlaceRecordSchema<number>({
  what: "probabilities",
  isValidValue: (value): value is number => typeof value === "number" && value >= 0 && value <= 1,
  valueMessage: "Expected a number from 0 to 1.",
  valueJsonSchema: { type: "number", minimum: 0, maximum: 1 },
});

/** A score legend: descriptions by score key; checked in place. */
const legendSchema = inPlaceRecordSchema<CriterionValue>({
  what: "legend",
  isValidValue: isCriterionValue,
  valueMessage: "Expected a string, an object, an array or null.",
  valueJsonSchema: criterionValueJsonSchema,
});

/** The answer to a `noul` question: `noul` is P(true). Additional properties allowed. */
export const noulAnswerSchema = z.looseObject({
  type: z.literal("noul"),
  noul: unitIntervalSchema,
});

/** The answer to a `noul` question. */
export type NoulAnswer = z.output<typeof noulAnswerSchema>;

/**
 * The answer to a `choice` question: the most probable choice, optionally every choice's
 * probability and a confidence in [0, 1]. Additional properties allowed.
 */
export const choiceAnswerSchema = z.looseObject({
  type: z.literal("choice"),
  choice: z.string(),
  probabilities: probabilitiesSchema.optional(),
  confidence: unitIntervalSchema.optional(),
});

/** The answer to a `choice` question. */
export type ChoiceAnswer = z.output<typeof choiceAnswerSchema>;

/**
 * The answer to a `score` question: the (expected) score, optionally probabilities and a legend
 * keyed by level (`"0"`, `"1"`, … or rubric keys) and a confidence in [0, 1]. Additional
 * properties allowed.
 */
export const scoreAnswerSchema = z.looseObject({
  type: z.literal("score"),
  score: z.number(),
  probabilities: probabilitiesSchema.optional(),
  legend: legendSchema.optional(),
  confidence: unitIntervalSchema.optional(),
});

/** The answer to a `score` question. */
export type ScoreAnswer = z.output<typeof scoreAnswerSchema>;

/** The model refused the question. Additional properties allowed. */
export const refusalAnswerSchema = z.looseObject({
  type: z.literal("refusal"),
});

/** A refused question. */
export type RefusalAnswer = z.output<typeof refusalAnswerSchema>;

/** Any answer, told apart by `type`. */
export const decisionAnswerSchema = z.discriminatedUnion(
  "type",
  [noulAnswerSchema, choiceAnswerSchema, scoreAnswerSchema, refusalAnswerSchema],
  { error: "answer type must be one of `noul`, `choice`, `score`, `refusal`." },
);

/** An answer of a decision response. */
export type DecisionAnswer = z.output<typeof decisionAnswerSchema>;
