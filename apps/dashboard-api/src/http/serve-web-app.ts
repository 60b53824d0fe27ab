import { existsSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import express, { type NextFunction, type Request, type RequestHandler, type Response } from "express";
import { chooseContentEncoding, type PrecompressedEncoding } from "./choose-content-encoding.js";

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
 * Browser features the web app never uses (it reads the clipboard only to copy a new key, which
 * stays allowed for its own origin): refused to it and to anything it could embed.
 */
export const webAppPermissionsPolicy = "camera=(), microphone=(), geolocation=(), payment=(), usb=()";

/** The suffix of each precompressed variant the build writes beside a file (`index-Ab12.js.br`). */
const variantSuffix: Record<PrecompressedEncoding, string> = { br: ".br", gzip: ".gz" };

/** Source maps stay out of reach even when a build left them beside the assets. */
const sourceMapPattern = /\.map$/i;

function isFile(filePath: string): boolean {
  try {
    return statSync(filePath).isFile();
  } catch {
    return false;
  }
}

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
 * A file with a `.br` or `.gz` twin (written by the build) is sent compressed to clients that
 * accept it (`Vary: Accept-Encoding`); source maps (`*.map`) are never served.
 * API paths pass through untouched. Answers null when `root` holds no `index.html` (not built).
 */
export function createWebAppMiddleware(root: string): RequestHandler | null {
  const indexPath = path.join(root, "index.html");
  if (!existsSync(indexPath)) return null;
  const resolvedRoot = path.resolve(root);
  const assetsDirectory = path.join(resolvedRoot, "assets") + path.sep;
  const cacheControlOf = (filePath: string) => (filePath.startsWith(assetsDirectory) ? "public, max-age=31536000, immutable" : "no-cache");
  const files = express.static(root, {
    index: false,
    redirect: false,
    fallthrough: true,
    setHeaders(response, filePath) {
      response.setHeader("cache-control", cacheControlOf(path.resolve(filePath)));
    },
  });
  /** The file a request names inside the build, or null (outside of it, undecodable, or not a file). */
  const fileOf = (requestPath: string): string | null => {
    let decoded: string;
    try {
      decoded = decodeURIComponent(requestPath);
    } catch {
      return null;
    }
    if (decoded.includes("\0")) return null;
    const filePath = path.resolve(resolvedRoot, `.${path.posix.normalize(decoded)}`);
    return filePath.startsWith(resolvedRoot + path.sep) && isFile(filePath) ? filePath : null;
  };
  /** Sends the precompressed twin of a file when the client accepts one; false when there is none to send. */
  const sendPrecompressed = (request: Request, response: Response, next: NextFunction): boolean => {
    const filePath = fileOf(request.path);
    if (filePath === null) return false;
    const available = (["br", "gzip"] as const).filter((encoding) => isFile(filePath + variantSuffix[encoding]));
    if (available.length === 0) return false;
    // Caches must keep the variants apart, the plain answer included.
    response.vary("Accept-Encoding");
    const encoding = chooseContentEncoding({ acceptEncoding: request.headers["accept-encoding"], available });
    if (encoding === null) return false;
    response.type(path.extname(filePath));
    response.setHeader("content-encoding", encoding);
    response.setHeader("cache-control", cacheControlOf(filePath));
    // Relative to the root, so that only the request's own segments are checked for dotfiles.
    response.sendFile(path.relative(resolvedRoot, filePath) + variantSuffix[encoding], { root: resolvedRoot, acceptRanges: false }, (error) => {
      if (error === undefined || error === null) return;
      if (response.headersSent) {
        response.destroy();
        return;
      }
      // The twin went away (a rebuild): answer the file as it is.
      response.removeHeader("content-encoding");
      response.removeHeader("content-type");
      files(request, response, () => next());
    });
    return true;
  };
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
    response.setHeader("permissions-policy", webAppPermissionsPolicy);
    // A window the web app opens (or that opens it) gets no handle on it.
    response.setHeader("cross-origin-opener-policy", "same-origin");
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
    // Source maps are not published (the build keeps them out of the bundles' comments too).
    if (sourceMapPattern.test(request.path)) {
      next();
      return;
    }
    if (sendPrecompressed(request, response, next)) return;
    files(request, response, () => {
      // A missing file (a name with an extension) stays a 404; anything else is a client-side route.
      if (path.posix.basename(request.path).includes(".")) next();
      else sendIndex(response, next);
    });
  };
}
