import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import express, { type NextFunction, type Request, type RequestHandler, type Response } from "express";

/**
 * Paths the web app never answers: the API (`/api`, `/v1`), the OpenAPI document and the health
 * check keep their own answers and JSON errors (an unknown `/api/...` path stays a JSON 404).
 */
const apiPathPattern = /^\/(?:api|v1)(?:\/|$)|^\/openapi\.json$|^\/healthz$/;

/**
 * The web app's security headers: its own scripts and styles only (the build emits no inline
 * script or style element; React sets style properties through the CSSOM, which CSP allows), no
 * eval, no framing, same-origin API calls only.
 */
export const webAppContentSecurityPolicy = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data:",
  "font-src 'self'",
  "connect-src 'self'",
  "object-src 'none'",
  "base-uri 'none'",
  "frame-ancestors 'none'",
  "form-action 'self'",
].join("; ");

/**
 * The built web app next to this package in the repository (`apps/dashboard-web/dist`), found from
 * this module's location whether it runs from `src/` (tests) or `dist/` (the built app).
 */
export function defaultWebAppRoot(): string {
  let directory = path.dirname(fileURLToPath(import.meta.url));
  while (!existsSync(path.join(directory, "package.json"))) {
    const parent = path.dirname(directory);
    if (parent === directory) break;
    directory = parent;
  }
  return path.resolve(directory, "../dashboard-web/dist");
}

/**
 * Serves the dashboard's single-page web app from `root` (a Vite build): hashed `/assets/*` files
 * with a one-year immutable cache, other files as they are, and `index.html` (never cached) for
 * every other GET/HEAD path without a file extension, so that client-side routes survive a reload.
 * API paths pass through untouched. Answers null when `root` holds no `index.html` (not built).
 */
export function createWebAppMiddleware(root: string): RequestHandler | null {
  const indexPath = path.join(root, "index.html");
  if (!existsSync(indexPath)) return null;
  const files = express.static(root, {
    index: false,
    redirect: false,
    fallthrough: true,
    setHeaders(response, filePath) {
      const immutable = filePath.startsWith(path.join(root, "assets") + path.sep);
      response.setHeader("cache-control", immutable ? "public, max-age=31536000, immutable" : "no-cache");
    },
  });
  const sendIndex = (response: Response, next: NextFunction) => {
    // Read per request (about 1 kB): a rebuilt web app is served without a restart.
    let indexHtml: Buffer;
    try {
      indexHtml = readFileSync(indexPath);
    } catch {
      next();
      return;
    }
    response.setHeader("content-type", "text/html; charset=utf-8");
    response.setHeader("cache-control", "no-cache");
    response.setHeader("content-security-policy", webAppContentSecurityPolicy);
    response.setHeader("x-frame-options", "DENY");
    // Invitation links carry their token in the query string: never hand it on as a referrer.
    response.setHeader("referrer-policy", "no-referrer");
    response.status(200).end(indexHtml);
  };
  return (request: Request, response: Response, next: NextFunction) => {
    if ((request.method !== "GET" && request.method !== "HEAD") || apiPathPattern.test(request.path)) {
      next();
      return;
    }
    if (request.path === "/" || request.path === "/index.html") {
      sendIndex(response, next);
      return;
    }
    files(request, response, () => {
      // A missing file (a name with an extension) stays a 404; anything else is a client-side route.
      if (path.posix.basename(request.path).includes(".")) next();
      else sendIndex(response, next);
    });
  };
}
