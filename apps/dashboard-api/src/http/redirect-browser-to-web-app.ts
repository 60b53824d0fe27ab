import { normalizeError } from "@gateway/errors";
import type { RouteContext, RouteResult } from "../routing/dashboard-route.js";
import type { DashboardServices } from "../services/dashboard-services.js";

/** Options of {@link redirectBrowserToWebApp}. */
export interface RedirectBrowserToWebAppOptions {
  /** The web app's page that shows the outcome, e.g. `/mcp`. */
  page: string;
  /** Query parameters of the page after a success, from the route's JSON answer. */
  success: (body: unknown) => Record<string, string>;
}

/**
 * Wraps the handler of a public route that a browser reaches by navigation (an OAuth redirect
 * target): a browser asking for HTML, when the web app is served, is sent on (303) to the web app's
 * page with `outcome=ok` and the success parameters, or with `outcome=failed`, the error `code`,
 * `message` and `request_id`. Any other caller gets the route's JSON answer or error unchanged.
 */
export function redirectBrowserToWebApp<Context extends RouteContext<any, any, any>>(
  services: Pick<DashboardServices, "settings" | "logger">,
  options: RedirectBrowserToWebAppOptions,
  handler: (context: Context) => Promise<RouteResult | undefined>,
): (context: Context) => Promise<RouteResult | undefined> {
  return async (context) => {
    const browser = services.settings.webRoot !== null && context.request.accepts(["json", "html"]) === "html";
    if (!browser) return handler(context);
    let parameters: Record<string, string>;
    try {
      const result = await handler(context);
      parameters = { outcome: "ok", ...options.success(result?.body) };
    } catch (thrown) {
      const error = normalizeError(thrown);
      // The JSON path logs failures in the error handler; this one answers them itself.
      if (error.status >= 500) services.logger.error("request failed", { request_id: context.requestId, code: error.code });
      const message = error.status >= 500 && error.code === "internal_error" ? "Internal error." : error.message;
      parameters = { outcome: "failed", code: error.code, message, request_id: context.requestId };
    }
    return { status: 303, headers: { location: `${options.page}?${new URLSearchParams(parameters).toString()}`, "cache-control": "no-store" } };
  };
}
