/** `Header-Name: value` lines into a header map (blank lines skipped); the first unreadable line is the error. */
export function parseHeaderLines(text: string): { headers: Record<string, string>; error?: string } {
  const headers: Record<string, string> = {};
  for (const line of text.split("\n").map((entry) => entry.trim()).filter(Boolean)) {
    const colon = line.indexOf(":");
    if (colon <= 0) return { headers, error: `“${line}” is not “Header-Name: value”.` };
    headers[line.slice(0, colon).trim()] = line.slice(colon + 1).trim();
  }
  return { headers };
}
