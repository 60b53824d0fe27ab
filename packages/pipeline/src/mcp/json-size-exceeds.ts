/**
 * Whether the JSON text of `value` would be longer than `limit` characters, without building it:
 * one walk that adds up strings, keys, numbers and punctuation, and stops as soon as the sum
 * passes `limit` (so a huge value costs no more than `limit` characters of work). Iterative: a
 * deeply nested value cannot overflow the stack. Values `JSON.stringify` leaves out count as
 * `null`; the count is exact for plain JSON data, and never below the text's length in UTF-16
 * code units (escapes only lengthen it).
 */
export function jsonSizeExceeds(value: unknown, limit: number): boolean {
  let size = 0;
  const pending: unknown[] = [value];
  while (pending.length > 0) {
    const next = pending.pop();
    if (typeof next === "string") size += next.length + 2;
    else if (typeof next === "number") size += String(next).length;
    else if (typeof next === "boolean") size += next ? 4 : 5;
    else if (next === null || typeof next !== "object") size += 4;
    else if (Array.isArray(next)) {
      // Brackets and commas.
      size += next.length === 0 ? 2 : next.length + 1;
      for (let index = next.length - 1; index >= 0; index--) pending.push(next[index]);
    } else {
      // Braces; each member adds its key's quotes and colon, and a comma (one fewer than members).
      size += 2;
      let members = 0;
      for (const key in next) {
        if (!Object.prototype.hasOwnProperty.call(next, key)) continue;
        size += key.length + (members === 0 ? 3 : 4);
        members += 1;
        pending.push((next as Record<string, unknown>)[key]);
        if (size > limit) return true;
      }
    }
    if (size > limit) return true;
  }
  return false;
}
