/**
 * A safe-regex style check run when a guardrail's regular expression is configured. It
 * rejects the constructs that make backtracking explode (exponential time):
 *
 * - nested quantifiers (star height > 1), e.g. `(a+)+`, `(\w*x?)*`, `(a{2,})+`;
 * - a repeated group with alternation, e.g. `(a|ab)*`, `(?:x|y)+`;
 * - backreferences (`\1`, `\k<name>`).
 *
 * "Repeated" means `*`, `+`, `{n,}` or `{n,m}` with m > 1 (`?` and `{0,1}` are fine).
 * Returns a reason, or `null` when the pattern passes. Polynomial blow-ups (e.g. `\s*\s*$`)
 * are not caught here; they are bounded by evaluating at most a window of input per call.
 */
export function findUnsafeRegexConstruct(source: string): string | null {
  interface Frame {
    containsRepeat: boolean;
    hasAlternation: boolean;
  }
  const stack: Frame[] = [{ containsRepeat: false, hasAlternation: false }];
  // What the last atom was, for the quantifier that may follow it.
  let lastAtom: { containsRepeat: boolean; hasAlternation: boolean } | null = null;
  let index = 0;
  while (index < source.length) {
    const character = source[index] as string;
    const top = stack[stack.length - 1] as Frame;
    if (character === "\\") {
      const next = source[index + 1] ?? "";
      if (/[1-9]/.test(next) || (next === "k" && source[index + 2] === "<")) return "backreferences are not allowed";
      index += 2;
      lastAtom = { containsRepeat: false, hasAlternation: false };
      continue;
    }
    if (character === "[") {
      index += 1;
      if (source[index] === "^") index += 1;
      while (index < source.length && source[index] !== "]") index += source[index] === "\\" ? 2 : 1;
      index += 1;
      lastAtom = { containsRepeat: false, hasAlternation: false };
      continue;
    }
    if (character === "(") {
      stack.push({ containsRepeat: false, hasAlternation: false });
      index += 1;
      if (source[index] === "?") {
        const named = /^\?<([A-Za-z_$][\w$]*)>/.exec(source.slice(index));
        if (named) index += named[0].length;
        else if (source.startsWith("?<=", index) || source.startsWith("?<!", index)) index += 3;
        else index += 2; // ?: ?= ?!
      }
      lastAtom = null;
      continue;
    }
    if (character === ")") {
      if (stack.length === 1) return "unbalanced parenthesis";
      const frame = stack.pop() as Frame;
      const parent = stack[stack.length - 1] as Frame;
      if (frame.containsRepeat) parent.containsRepeat = true;
      lastAtom = frame;
      index += 1;
      continue;
    }
    if (character === "|") {
      top.hasAlternation = true;
      lastAtom = null;
      index += 1;
      continue;
    }
    const quantifier = readQuantifier(source, index);
    if (quantifier) {
      if (lastAtom === null) return "quantifier without a target";
      if (quantifier.repeats) {
        if (lastAtom.containsRepeat) return "nested quantifiers are not allowed";
        if (lastAtom.hasAlternation) return "a repeated group with alternation is not allowed";
        top.containsRepeat = true;
      }
      index += quantifier.length;
      if (source[index] === "?") index += 1; // lazy
      lastAtom = null;
      continue;
    }
    lastAtom = { containsRepeat: false, hasAlternation: false };
    index += 1;
  }
  if (stack.length !== 1) return "unbalanced parenthesis";
  return null;
}

function readQuantifier(source: string, index: number): { length: number; repeats: boolean } | null {
  const character = source[index];
  if (character === "*" || character === "+") return { length: 1, repeats: true };
  if (character === "?") return { length: 1, repeats: false };
  if (character === "{") {
    const match = /^\{(\d+)(,(\d*))?\}/.exec(source.slice(index, index + 24));
    if (!match) return null;
    const minimum = Number(match[1]);
    const maximum = match[2] === undefined ? minimum : match[3] === "" ? Infinity : Number(match[3]);
    return { length: match[0].length, repeats: maximum > 1 };
  }
  return null;
}
