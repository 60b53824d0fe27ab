import { createDashboardRoutes } from "../create-dashboard-app.js";
import type { DashboardServices } from "../services/dashboard-services.js";
import { buildOpenApiDocument, type OpenApiDocument } from "./build-openapi-document.js";

/**
 * The dashboard API's OpenAPI document without a running app or a database (what `GET
 * /openapi.json` serves): for build steps such as the web app's generated client types. Route
 * factories only keep `services` for their handlers, and no handler runs here.
 */
export function createDashboardOpenApiDocument(options: { version?: string; serverUrl?: string } = {}): OpenApiDocument {
  const unused = new Proxy({} as DashboardServices, {
    get: (_target, property) => (property === "settings" ? {} : undefined),
  });
  return buildOpenApiDocument(createDashboardRoutes(unused), options);
}
