import { z } from "zod";
import { countEntriesCheck } from "./count-entries-check.js";
import {
  type CriterionValue,
  criterionValueJsonSchema,
  criterionValueSchema,
  decisionContentSchema,
  isCriterionValue,
} from "./decision-content-schema.js";
import { decisionLimits } from "./decision-limits.js";
import { checkRecordEntries, inPlaceRecordSchema, isPlainObject } from "./in-place-record-schema.js";
import { parseRubricKey } from "./parse-rubric-key.js";
import { withJsonSchema } from "./with-json-schema.js";

const { minCriteria, maxCriteria } = decisionLimits;
const criterionValueMessage = "Expected a string, an object, an array or null.";

/**
 * A yes/no question: the answer is P(true). `criteria` may describe what `true` and `false` mean;
 * it is an object with only the keys `true` and `false`, or null. Additional properties allowed.
 */
export const noulQuestionSchema = z.looseObject({
  type: z.literal("noul"),
  instructions: decisionContentSchema,
  criteria: z
    .strictObject(
      { true: criterionValueSchema.optional(), false: criterionValueSchema.optional() },
      { error: "noul criteria may only have the keys `true` and `false`." },
    )
    .nullable()
    .optional(),
});

/** A `noul` (yes/no) question. */
export type NoulQuestion = z.output<typeof noulQuestionSchema>;

/** Choice criteria: 2 to 255 named choices, each described by a string, object, array or null. */
const choiceCriteriaSchema = inPlaceRecordSchema<CriterionValue>({
  what: "choice criteria",
  minimum: minCriteria,
  maximum: maxCriteria,
  isValidValue: isCriterionValue,
  valueMessage: criterionValueMessage,
  valueJsonSchema: criterionValueJsonSchema,
});

/**
 * A question whose answer is one of 2 to 255 named choices (the keys of `criteria`).
 * Additional properties allowed.
 */
export const choiceQuestionSchema = z.looseObject({
  type: z.literal("choice"),
  instructions: decisionContentSchema,
  criteria: choiceCriteriaSchema,
});

/** A `choice` question. */
export type ChoiceQuestion = z.output<typeof choiceQuestionSchema>;

/** Score criteria: ordered levels (level i has score i) or a numeric-key rubric. */
export type ScoreCriteria = CriterionValue[] | Record<string, CriterionValue>;

/**
 * A rubric key must denote a finite number no earlier key denotes (`"1"` and `"1.0"` collide).
 * One pass, one map per rubric.
 */
function rubricKeyCheck(): (key: string) => string | undefined {
  const seen = new Map<number, string>();
  return (key) => {
    const score = parseRubricKey(key);
    if (score === undefined) return `score rubric key ${JSON.stringify(key)} is not a finite number.`;
    const earlier = seen.get(score);
    if (earlier !== undefined) return `score rubric key ${JSON.stringify(key)} denotes the same score as ${JSON.stringify(earlier)}.`;
    seen.set(score, key);
    return undefined;
  };
}

const scoreCriteriaMessage = `score criteria must be an array of ${minCriteria} to ${maxCriteria} levels or an object rubric of ${minCriteria} to ${maxCriteria} numeric keys.`;

/**
 * Score criteria, checked in place: an array of 2 to 255 levels, or an object rubric of 2 to 255
 * entries keyed by finite, distinct numbers; values string, object, array or null.
 */
const scoreCriteriaSchema = withJsonSchema(scoreCriteriaCheck(), {
  anyOf: [
    { type: "array", items: criterionValueJsonSchema, minItems: minCriteria, maxItems: maxCriteria },
    {
      type: "object",
      description: "A numeric-key rubric: keys are finite, distinct numbers written as strings.",
      additionalProperties: criterionValueJsonSchema,
      minProperties: minCriteria,
      maxProperties: maxCriteria,
    },
  ],
});

/** The in-place check of score criteria (levels or rubric), without its JSON Schema. */
function scoreCriteriaCheck() {
  return z
    .custom<ScoreCriteria>((value) => Array.isArray(value) || isPlainObject(value), { error: scoreCriteriaMessage })
    .check((context) => {
      const criteria = context.value;
      if (!Array.isArray(criteria)) {
        checkRecordEntries(context as z.core.ParsePayload<Record<string, unknown>>, {
          what: "score rubric",
          minimum: minCriteria,
          maximum: maxCriteria,
          isValidValue: isCriterionValue,
          valueMessage: criterionValueMessage,
          checkKey: rubricKeyCheck,
        });
        return;
      }
      if (criteria.length < minCriteria || criteria.length > maxCriteria) {
        const tooSmall = criteria.length < minCriteria;
        context.issues.push({
          code: tooSmall ? "too_small" : "too_big",
          origin: "array",
          ...(tooSmall ? { minimum: minCriteria } : { maximum: maxCriteria }),
          inclusive: true,
          input: criteria,
          message: `score levels must have ${minCriteria} to ${maxCriteria} entries (got ${criteria.length}).`,
          continue: true,
        } as z.core.$ZodRawIssue);
        return;
      }
      criteria.forEach((level, index) => {
        if (!isCriterionValue(level)) {
          context.issues.push({ code: "custom", input: level, path: [index], message: criterionValueMessage, continue: true });
        }
      });
    });
}

/**
 * A question answered by a number: `criteria` is either an array of 2 to 255 ordered levels or an
 * object rubric of 2 to 255 entries keyed by finite, distinct numbers (native providers only).
 * Additional properties allowed.
 */
export const scoreQuestionSchema = z.looseObject({
  type: z.literal("score"),
  instructions: decisionContentSchema,
  criteria: scoreCriteriaSchema,
});

/** A `score` question. */
export type ScoreQuestion = z.output<typeof scoreQuestionSchema>;

/** Any question of a decision request, told apart by `type`. */
export const decisionQuestionSchema = z.discriminatedUnion("type", [noulQuestionSchema, choiceQuestionSchema, scoreQuestionSchema], {
  error: "question type must be one of `noul`, `choice`, `score`.",
});

/** A question of a decision request. */
export type DecisionQuestion = z.output<typeof decisionQuestionSchema>;

/** The kind of a question: `noul`, `choice` or `score`. */
export type DecisionQuestionKind = DecisionQuestion["type"];
