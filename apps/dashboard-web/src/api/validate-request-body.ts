import { z } from "zod";
import { dashboardOperations } from "../generated/dashboard-operations.js";
import type { DashboardOperation } from "./dashboard-operation.js";
import { describeValidationIssue } from "./describe-validation-issue.js";
import { formatFieldPath } from "./format-field-path.js";
import { narrowUnionIssues } from "./narrow-union-issues.js";

// The web app's content security policy forbids eval: zod must not try to compile its parsers.
z.config({ jitless: true });

const schemas = new Map<DashboardOperation, z.ZodType | null>();

function schemaOf(operation: DashboardOperation): z.ZodType | null {
  if (!schemas.has(operation)) {
    const jsonSchema = dashboardOperations[operation].requestSchema as unknown;
    schemas.set(operation, jsonSchema === null ? null : z.fromJSONSchema(jsonSchema as Parameters<typeof z.fromJSONSchema>[0]));
  }
  return schemas.get(operation)!;
}

/**
 * Validates a request body against the operation's request schema from the API's OpenAPI document
 * (generated from the zod schemas the API itself validates with). Answers field path -> message,
 * empty when valid; the first issue of each field wins, issues without a path go under "". A value
 * that matches no option of a union reports the fields of the option it meant (see {@link narrowUnionIssues}).
 */
export function validateRequestBody(operation: DashboardOperation, body: unknown): Record<string, string> {
  const schema = schemaOf(operation);
  if (schema === null) return {};
  const result = schema.safeParse(body, { reportInput: true });
  if (result.success) return {};
  const errors: Record<string, string> = {};
  for (const issue of narrowUnionIssues(result.error.issues)) {
    const path = formatFieldPath(issue.path);
    errors[path] ??= describeValidationIssue(issue);
  }
  return errors;
}
