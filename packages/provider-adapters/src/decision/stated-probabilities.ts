import { malformedAnswer } from "../upstream-call.js";

/** A JSON schema with one required number field (a probability in [0, 1]) per label. */
export function probabilitiesJsonSchema(fields: readonly { label: string; description: string }[]): Record<string, unknown> {
  const properties: Record<string, unknown> = {};
  for (const field of fields) properties[field.label] = { type: "number", description: field.description };
  return { type: "object", properties, required: fields.map((field) => field.label), additionalProperties: false };
}

/**
 * Reads the stated probabilities of a structured answer: one finite, non-negative number per
 * label (a missing label counts 0; numbers above 1 are accepted and renormalised later).
 * Anything else, or no probability at all, is a malformed answer (502).
 */
export function parseStatedProbabilities(
  value: unknown,
  fields: readonly { label: string }[],
  provider: string,
): Record<string, number> {
  if (typeof value !== "object" || value === null || Array.isArray(value)) {
    throw malformedAnswer(provider, "is not an object of probabilities");
  }
  const record = value as Record<string, unknown>;
  const weights: Record<string, number> = {};
  let total = 0;
  for (const field of fields) {
    const entry = record[field.label];
    if (entry === undefined || entry === null) {
      weights[field.label] = 0;
      continue;
    }
    if (typeof entry !== "number" || !Number.isFinite(entry) || entry < 0) {
      throw malformedAnswer(provider, `states an invalid probability for '${field.label}'`);
    }
    weights[field.label] = entry;
    total += entry;
  }
  if (!(total > 0)) throw malformedAnswer(provider, "states no probability for any option");
  return weights;
}
