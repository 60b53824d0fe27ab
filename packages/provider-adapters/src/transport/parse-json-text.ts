/** An answer body's JSON value, or `undefined` when the text is empty or not JSON. */
export function parseJsonText(text: string): unknown {
  if (text.length === 0) return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}
