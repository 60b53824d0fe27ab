import type { Request } from "express";

/** The session cookie's name. */
export const sessionCookieName = "gateway_session";

/** Options of {@link serializeSessionCookie}. */
export interface SessionCookieOptions {
  value: string;
  expiresAt: Date;
  secure: boolean;
  now?: Date;
}

/**
 * `gateway_session=<id>; Path=/; Expires=<expires_at>; Max-Age=<seconds>; HttpOnly; Secure; SameSite=Lax`.
 * Expires and Max-Age both match the session's `expires_at`.
 */
export function serializeSessionCookie(options: SessionCookieOptions): string {
  const now = options.now ?? new Date();
  const maxAge = Math.max(0, Math.floor((options.expiresAt.getTime() - now.getTime()) / 1000));
  const parts = [
    `${sessionCookieName}=${options.value}`,
    "Path=/",
    `Expires=${options.expiresAt.toUTCString()}`,
    `Max-Age=${maxAge}`,
    "HttpOnly",
  ];
  if (options.secure) parts.push("Secure");
  parts.push("SameSite=Lax");
  return parts.join("; ");
}

/** A cookie that removes the session cookie in the browser. */
export function serializeClearedSessionCookie(secure: boolean): string {
  const parts = [`${sessionCookieName}=`, "Path=/", "Expires=Thu, 01 Jan 1970 00:00:00 GMT", "Max-Age=0", "HttpOnly"];
  if (secure) parts.push("Secure");
  parts.push("SameSite=Lax");
  return parts.join("; ");
}

/** Reads one cookie from the `Cookie` header (no dependency on a cookie parser). */
export function readCookie(request: Request, name: string): string | undefined {
  const header = request.headers.cookie;
  if (header === undefined) return undefined;
  for (const part of header.split(";")) {
    const separator = part.indexOf("=");
    if (separator === -1) continue;
    if (part.slice(0, separator).trim() !== name) continue;
    const value = part.slice(separator + 1).trim();
    try {
      return decodeURIComponent(value);
    } catch {
      return value;
    }
  }
  return undefined;
}

/** Whether the request's Host is localhost or 127.0.0.1 (any port). */
export function isLocalhostRequest(request: Request): boolean {
  const host = (request.headers.host ?? "").toLowerCase();
  const hostname = host.startsWith("[") ? host.slice(0, host.indexOf("]") + 1) : host.split(":")[0];
  return hostname === "localhost" || hostname === "127.0.0.1" || hostname === "[::1]";
}
