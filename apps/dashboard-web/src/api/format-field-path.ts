/**
 * Renders a validation issue path the way the dashboard API names a `param`: `a.b[2].c`. Form
 * fields are keyed by it, so client-side and server-side errors land on the same field.
 */
export function formatFieldPath(path: readonly PropertyKey[]): string {
  let result = "";
  for (const segment of path) {
    if (typeof segment === "number") result += `[${segment}]`;
    else result += result === "" ? String(segment) : `.${String(segment)}`;
  }
  return result;
}
