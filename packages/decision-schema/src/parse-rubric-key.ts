/**
 * Parses a key of a score rubric (an object whose keys are numbers written as strings) into the
 * score it denotes. Accepts decimal notation only (`"1"`, `"1.0"`, `"-2"`, `"+3"`, `".5"`, `"5."`,
 * `"1e2"`); returns `undefined` for anything else, including `""`, `" "`, padded numbers (`" 1"`),
 * `"NaN"`, `"Infinity"`, hex, binary and octal (`"0x10"`), numeric separators (`"1_000"`) and
 * numbers too large to be finite (`"1e400"`). `"-0"` denotes 0.
 *
 * Equivalent to matching `^[+-]?(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?$` and then `Number(key)`, but
 * without a regular expression: `Number` already accepts exactly decimal literals once padding,
 * `Infinity` and the `0x`/`0b`/`0o` prefixes are ruled out by the first and last characters.
 */
export function parseRubricKey(key: string): number | undefined {
  if (key.length === 0) return undefined;
  const first = key.charCodeAt(0);
  const last = key.charCodeAt(key.length - 1);
  // A decimal literal starts with a digit, a sign or a dot and ends with a digit or a dot.
  if (!(isDigit(first) || first === plus || first === minus || first === dot)) return undefined;
  if (!(isDigit(last) || last === dot)) return undefined;
  if (first === zero && key.length > 1 && isRadixLetter(key.charCodeAt(1))) return undefined;
  const value = Number(key);
  if (!Number.isFinite(value)) return undefined;
  return value === 0 ? 0 : value;
}

const zero = 48;
const plus = 43;
const minus = 45;
const dot = 46;

function isDigit(code: number): boolean {
  return code >= zero && code <= 57;
}

/** x, X, b, B, o, O: the prefixes of hexadecimal, binary and octal literals. */
function isRadixLetter(code: number): boolean {
  return code === 120 || code === 88 || code === 98 || code === 66 || code === 111 || code === 79;
}
