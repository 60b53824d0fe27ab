import type { z } from "zod";

/** A short, human message for a validation issue (the same rules the API applies, said plainly). */
export function describeValidationIssue(issue: z.core.$ZodIssue): string {
  switch (issue.code) {
    case "invalid_type":
      if (issue.input === undefined || issue.input === null || issue.input === "") return "Required.";
      if (issue.expected === "int") return "Enter a whole number.";
      if (issue.expected === "number") return "Enter a number.";
      return `Expected ${issue.expected}.`;
    case "too_small":
      if (issue.origin === "string") return Number(issue.minimum) <= 1 ? "Required." : `At least ${issue.minimum} characters.`;
      if (issue.origin === "array" || issue.origin === "set") return `Add at least ${issue.minimum}.`;
      return issue.inclusive ? `At least ${issue.minimum}.` : `More than ${issue.minimum}.`;
    case "too_big":
      if (issue.origin === "string") return `At most ${issue.maximum} characters.`;
      if (issue.origin === "array" || issue.origin === "set") return `At most ${issue.maximum} entries.`;
      return issue.inclusive ? `At most ${issue.maximum}.` : `Less than ${issue.maximum}.`;
    case "invalid_format":
      if (issue.format === "email") return "Enter an email address.";
      if (issue.format === "url" || issue.format === "uri") return "Enter a full URL (https://...).";
      if (issue.format === "datetime" || issue.format === "date-time") return "Enter a date and time.";
      return "Not in the expected format.";
    case "invalid_value":
      return issue.values.length <= 6 ? `Choose one of: ${issue.values.map(String).join(", ")}.` : "Not an allowed value.";
    case "unrecognized_keys":
      return `Unknown field${issue.keys.length > 1 ? "s" : ""}: ${issue.keys.join(", ")}.`;
    case "invalid_union":
      return "Not a valid choice.";
    default:
      return issue.message;
  }
}
