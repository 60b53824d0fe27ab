import { z } from "zod";

/**
 * Content a decision evaluates or is described by: `state` and `instructions` are a string, an
 * object or an array (never a number, boolean or null). Objects and arrays are free-form.
 */
export const decisionContentSchema = z.union([z.string(), z.looseObject({}), z.array(z.unknown())], {
  error: "Expected a string, an object or an array.",
});

/** A string, an object or an array: the type of `state` and of question `instructions`. */
export type DecisionContent = z.output<typeof decisionContentSchema>;

/**
 * The description of a choice, a score level, a rubric entry or a noul outcome: a string, an
 * object, an array or null.
 */
export const criterionValueSchema = z.union([z.string(), z.looseObject({}), z.array(z.unknown()), z.null()], {
  error: "Expected a string, an object, an array or null.",
});

/** A string, an object, an array or null: the value of a criteria entry or of a legend entry. */
export type CriterionValue = z.output<typeof criterionValueSchema>;

/**
 * Whether a value is a valid criterion value (string, object, array or null), without copying it.
 * Same rule as {@link criterionValueSchema}, for in-place checks of large records.
 */
export function isCriterionValue(value: unknown): value is CriterionValue {
  return typeof value === "string" || typeof value === "object";
}

const { $schema: _criterionDialect, ...criterionValueJson } = z.toJSONSchema(criterionValueSchema);

/** JSON Schema of a criterion value (string, object, array or null). */
export const criterionValueJsonSchema: Record<string, unknown> = criterionValueJson;
