/** The canonical resource URI of an MCP server URL (RFC 8707: no fragment; no trailing slash on a bare origin). */
export function canonicalResourceUri(serverUrl: string): string {
  const url = new URL(serverUrl);
  url.hash = "";
  let text = url.toString();
  if (url.pathname === "/" && url.search === "") text = text.replace(/\/$/, "");
  return text;
}
