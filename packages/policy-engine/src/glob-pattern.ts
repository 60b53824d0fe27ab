/**
 * Glob patterns over model ids (`<provider>/<vendor>/<model>`) and aliases.
 *
 * - `*` matches any run of characters except `/` (zero or more, within one segment);
 * - `**` matches any run of characters including `/` (zero or more, across segments);
 * - every other character matches itself, case-sensitively.
 *
 * So `openai/*` matches the alias-free id `openai/x` but not `openai/openai/gpt-4o`;
 * `openai/**` matches both; `*` matches every alias (aliases have no `/`); `**` matches everything.
 */
export function compileGlob(pattern: string): (value: string) => boolean {
  if (pattern === "**") return () => true;
  if (!pattern.includes("*")) return (value) => value === pattern;
  let source = "^";
  for (let index = 0; index < pattern.length; index += 1) {
    const character = pattern[index] as string;
    if (character === "*") {
      if (pattern[index + 1] === "*") {
        while (pattern[index + 1] === "*") index += 1;
        source += "[^]*";
      } else {
        source += "[^/]*";
      }
    } else {
      source += character.replace(/[.*+?^${}()|[\]\\/]/g, "\\$&");
    }
  }
  const expression = new RegExp(`${source}$`, "u");
  return (value) => expression.test(value);
}

/** Whether `value` matches the glob `pattern` (see {@link compileGlob} for the syntax). */
export function matchesGlob(pattern: string, value: string): boolean {
  return compileGlob(pattern)(value);
}
