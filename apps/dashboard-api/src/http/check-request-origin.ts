import type { Request } from "express";
import { GatewayError } from "@gateway/errors";

const safeMethods = new Set(["GET", "HEAD", "OPTIONS"]);

/**
 * The CSRF rule: an unsafe request that carries the session cookie must show that it comes
 * from the dashboard's own origin: an `Origin` header equal to one of `allowedOrigins`, or,
 * without `Origin`, `Sec-Fetch-Site: same-origin`. Anything else (no evidence, another
 * origin, `Origin: null`) is refused with 403 `origin_rejected`.
 *
 * For requests without the cookie (login), a present `Origin` must still match, which stops
 * cross-site login forgery; callers without a browser (curl) send no `Origin` and pass.
 */
export function checkRequestOrigin(request: Request, options: { allowedOrigins: readonly string[]; hasSessionCookie: boolean }): void {
  if (safeMethods.has(request.method)) return;
  const origin = request.headers.origin;
  if (origin !== undefined) {
    if (options.allowedOrigins.includes(origin)) return;
    throw new GatewayError("origin_rejected", {
      message: "This request must come from the dashboard's own origin.",
      details: { origin },
    });
  }
  if (!options.hasSessionCookie) return;
  const fetchSite = request.headers["sec-fetch-site"];
  if (fetchSite === "same-origin") return;
  throw new GatewayError("origin_rejected", {
    message: "Requests that change data with a session cookie must carry an Origin header of the dashboard's origin.",
    details: fetchSite === undefined ? {} : { sec_fetch_site: String(fetchSite) },
  });
}
