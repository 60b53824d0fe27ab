/**
 * A shallow copy of a caller's JSON object, to which the adapter then adds fields. Not a spread:
 * on V8 (Node 20) a spread copy that later gains a key (`stream_options`, `store`) gets a new
 * hidden class on every call, made in the old generation (`scripts/bench/hidden-class-bench.mjs`
 * counts them). Each field is defined as the spread would define it, so an own `__proto__` field
 * stays a field (an assignment would set the copy's prototype instead).
 */
export function copyFields(source: Readonly<Record<string, unknown>>): Record<string, unknown> {
  const copy: Record<string, unknown> = {};
  for (const key of Object.keys(source)) {
    if (key === "__proto__") Object.defineProperty(copy, key, { value: source[key], writable: true, enumerable: true, configurable: true });
    else copy[key] = source[key];
  }
  return copy;
}
