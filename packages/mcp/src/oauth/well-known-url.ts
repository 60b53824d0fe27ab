/** RFC 8414 / RFC 9728 well-known URL: the well-known segment goes between the origin and the path. */
export function wellKnownUrl(base: string, suffix: string): string {
  const url = new URL(base);
  const path = url.pathname === "/" ? "" : url.pathname.replace(/\/$/, "");
  return `${url.origin}/.well-known/${suffix}${path}`;
}
