import express, { type Express, type NextFunction, type Request, type Response } from "express";
import type { DatabaseClient, SqlClient } from "@gateway/db";
import { GatewayError } from "@gateway/errors";
import { createAttemptLimiter } from "./auth/attempt-limiter.js";
import { createLoginThrottle } from "./auth/login-throttle.js";
import { createAuthRoutes } from "./auth/auth-routes.js";
import { createSsoConfigurationRoutes } from "./auth/sso/sso-configuration-routes.js";
import { createSsoRoutes } from "./auth/sso/sso-routes.js";
import { resolvePrincipal } from "./auth/session-store.js";
import { createConsoleLogger, type DashboardLogger } from "./dashboard-logger.js";
import { readDashboardSettings, type DashboardSettings } from "./dashboard-settings.js";
import { createMailer, type Mailer } from "./email/create-mailer.js";
import { generateDashboardRequestId } from "./http/create-dashboard-server.js";
import { parseJsonBodyMiddleware } from "./http/parse-json-body-middleware.js";
import { sendDashboardError } from "./http/send-dashboard-error.js";
import { createWebAppMiddleware } from "./http/serve-web-app.js";
import { buildOpenApiDocument } from "./openapi/build-openapi-document.js";
import { type PlaygroundRunner, checkReadiness } from "@gateway/pipeline";
import { createApiKeyRoutes } from "./resources/api-key-routes.js";
import { createAuditRoutes } from "./resources/audit-routes.js";
import { createBudgetRoutes } from "./resources/budget-routes.js";
import { createConnectionRoutes } from "./resources/connection-routes.js";
import { createConnectionKindRoutes } from "./resources/connection-kind-routes.js";
import { createInvitationRoutes } from "./resources/invitation-routes.js";
import { createMcpRoutes } from "./resources/mcp-routes.js";
import { createMemberRoutes } from "./resources/member-routes.js";
import { createNotificationChannelRoutes } from "./resources/notification-channel-routes.js";
import { createMonitorRoutes } from "./resources/monitor-routes.js";
import { createPlaygroundRoutes } from "./resources/playground-routes.js";
import { createPolicyRoutes } from "./resources/policy-routes.js";
import { createProjectRoutes } from "./resources/project-routes.js";
import { createRateLimitRoutes } from "./resources/rate-limit-routes.js";
import { createRouteRoutes } from "./resources/route-routes.js";
import { createTeamRoutes } from "./resources/team-routes.js";
import { createTelemetryDestinationRoutes } from "./resources/telemetry-destination-routes.js";
import { createUsageRoutes } from "./resources/usage-routes.js";
import { createUsageSeriesRoutes } from "./resources/usage-series-routes.js";
import { createLimitStatusRoutes } from "./resources/limit-status-routes.js";
import { createActivityRoutes } from "./resources/activity-routes.js";
import type { DashboardRoute } from "./routing/dashboard-route.js";
import { mountRoutes } from "./routing/mount-routes.js";
import { type ControlPlaneChange, createControlPlaneAnnouncer } from "./services/control-plane-announcer.js";
import type { DashboardServices, SecretCipher } from "./services/dashboard-services.js";
import type { Redis } from "ioredis";
import { createRedisLimitCounters, type LimitCounters } from "./services/limit-counters.js";

/**
 * Limits of the login and resend throttles (defaults in parentheses). Logins are limited per
 * (account, client address) and per client address (429), and slowed down per account, never
 * locked (see `createLoginThrottle`).
 */
export interface DashboardThrottleSettings {
  /** Failed logins on one account from one client address in the window (5). */
  accountAddressFailures?: number;
  /** Failed logins per client address, all accounts together, in the window (20). */
  addressFailures?: number;
  /** Failed logins on one account, any address, after which its logins are slowed down (5). */
  accountSlowdownAfter?: number;
  /** First slow-down delay in ms, doubling per further failure (250). */
  accountDelayMs?: number;
  /** Longest slow-down delay in ms (8000). */
  accountMaxDelayMs?: number;
  /** Login failure window in ms (15 minutes). */
  loginWindowMs?: number;
  /** Invitation resends per invitation in the window (3). */
  resendsPerInvitation?: number;
  /** Resend window in ms (1 hour). */
  resendWindowMs?: number;
}

/** What `createDashboardApp` needs. */
export interface DashboardDependencies {
  /** The database handle, Prisma and the raw driver (e.g. `createDatabase()`; may be shared with the gateway in the same process). */
  database: DatabaseClient & SqlClient;
  /** Encrypts secrets at rest (`@gateway/db`'s secret box). */
  secretBox: SecretCipher;
  /** Settings; defaults come from the environment. */
  settings?: DashboardSettings;
  logger?: DashboardLogger;
  /** Default: SMTP when `settings.smtpUrl` is set, else the logged outbox. */
  mailer?: Mailer;
  /**
   * The `fetch` of connection tests and MCP OAuth discovery; default the outbound address
   * policy's (`defaultOutboundFetch` of `@gateway/provider-adapters`). Tests inject one with a resolver.
   */
  outboundFetch?: typeof fetch;
  /** The gateway pipeline's chat entry for the playground; null answers 503 `service_unavailable`. */
  playground?: PlaygroundRunner | null;
  throttle?: DashboardThrottleSettings;
  /**
   * A Redis connection (not in subscriber mode) on which control-plane writes are announced to
   * the gateways (`<settings.redisKeyPrefix>control-plane`). The caller owns and closes it;
   * `startDashboard` opens one from `REDIS_URL`. Null or absent: no announcements.
   */
  redis?: Redis | null;
  /**
   * Called after every control-plane write (API keys, projects, connections, routes, policies,
   * budgets, rate limits, teams, members, the organization), awaited up to 1 s before the
   * write answers: `pnpm start` refreshes the in-process gateway's snapshot with it. Failures
   * are logged, never answered.
   */
  onControlPlaneChange?: ((change: ControlPlaneChange) => void | Promise<void>) | null;
  /**
   * The admission counters the budget and rate-limit statuses read: `pnpm start` hands the
   * in-process gateway's (`instance_counters`). Unset: the gateways' Redis counters when `redis`
   * is given, else none (the statuses show recorded usage).
   */
  limitCounters?: LimitCounters | null;
  /** The clock (tests). */
  now?: () => Date;
}

/** The Express app plus what tests and the starter need. */
export interface DashboardApp {
  app: Express;
  /** The route table: every `/v1/auth` and `/api` route with its permission and schemas. */
  routes: readonly DashboardRoute[];
  services: DashboardServices;
}

/** Builds the route table for a set of services. */
export function createDashboardRoutes(services: DashboardServices): DashboardRoute[] {
  return [
    ...createAuthRoutes(services),
    ...createSsoRoutes(services),
    ...createSsoConfigurationRoutes(services),
    ...createInvitationRoutes(services),
    ...createMemberRoutes(services),
    ...createTeamRoutes(services),
    ...createProjectRoutes(services),
    ...createApiKeyRoutes(services),
    ...createConnectionRoutes(services),
    ...createConnectionKindRoutes(),
    ...createPolicyRoutes(services),
    ...createRouteRoutes(services),
    ...createBudgetRoutes(services),
    ...createRateLimitRoutes(services),
    ...createTelemetryDestinationRoutes(services),
    ...createNotificationChannelRoutes(services),
    ...createMonitorRoutes(services),
    ...createMcpRoutes(services),
    ...createPlaygroundRoutes(services),
    ...createUsageRoutes(services),
    ...createUsageSeriesRoutes(services),
    ...createLimitStatusRoutes(services),
    ...createAuditRoutes(services),
    ...createActivityRoutes(services),
  ];
}

/**
 * Creates the dashboard API (Express 5): `/v1/auth/*`, `/api/*`, `/openapi.json`, and the web app
 * at `/` when `settings.webRoot` holds a build.
 * Every answer carries `x-request-id`; every error is the dashboard body
 * `{error:{code,message,details}}` (unknown failures: a generic 500, details only in logs).
 */
export function createDashboardApp(dependencies: DashboardDependencies): DashboardApp {
  const requestedSettings = dependencies.settings ?? readDashboardSettings();
  const logger = dependencies.logger ?? createConsoleLogger();
  // The web app (same origin as the API, so the session cookie and the Origin rule apply unchanged).
  const webApp = requestedSettings.webRoot === null ? null : createWebAppMiddleware(requestedSettings.webRoot);
  if (webApp === null && requestedSettings.webRoot !== null) {
    logger.warn("The dashboard web app is not built (run `pnpm build`): serving the API only.", { web_root: requestedSettings.webRoot });
  }
  // `webRoot: null` from here on means "no web app is served" (routes that send browsers to it check this).
  const settings: DashboardSettings = webApp === null ? { ...requestedSettings, webRoot: null } : requestedSettings;
  const throttle = dependencies.throttle ?? {};
  const loginWindowMs = throttle.loginWindowMs ?? 15 * 60_000;
  const services: DashboardServices = {
    database: dependencies.database,
    prisma: dependencies.database.prisma,
    secrets: dependencies.secretBox,
    settings,
    logger,
    ...(dependencies.outboundFetch === undefined ? {} : { outboundFetch: dependencies.outboundFetch }),
    mailer: dependencies.mailer ?? createMailer({ smtpUrl: settings.smtpUrl, from: settings.emailFrom, timeoutMs: settings.deliveryTimeoutMs, logger }),
    loginThrottle: createLoginThrottle({
      windowMs: loginWindowMs,
      ...(throttle.accountAddressFailures === undefined ? {} : { accountAddressFailures: throttle.accountAddressFailures }),
      ...(throttle.addressFailures === undefined ? {} : { addressFailures: throttle.addressFailures }),
      ...(throttle.accountSlowdownAfter === undefined ? {} : { accountSlowdownAfter: throttle.accountSlowdownAfter }),
      ...(throttle.accountDelayMs === undefined ? {} : { accountDelayMs: throttle.accountDelayMs }),
      ...(throttle.accountMaxDelayMs === undefined ? {} : { accountMaxDelayMs: throttle.accountMaxDelayMs }),
    }),
    resendLimiter: createAttemptLimiter({ limit: throttle.resendsPerInvitation ?? 3, windowMs: throttle.resendWindowMs ?? 60 * 60_000 }),
    playground: dependencies.playground ?? null,
    limitCounters:
      dependencies.limitCounters ??
      (dependencies.redis ? createRedisLimitCounters({ redis: dependencies.redis, keyPrefix: settings.redisKeyPrefix, database: dependencies.database }) : null),
    announceControlPlaneChange: createControlPlaneAnnouncer({
      database: dependencies.database,
      redis: dependencies.redis ?? null,
      keyPrefix: settings.redisKeyPrefix,
      onControlPlaneChange: dependencies.onControlPlaneChange ?? null,
      logger,
    }),
    now: dependencies.now ?? (() => new Date()),
  };
  const routes = createDashboardRoutes(services);
  const openApiDocument = buildOpenApiDocument(routes);

  const app = express();
  app.disable("x-powered-by");
  app.set("etag", false);
  if (settings.trustProxy !== null) app.set("trust proxy", settings.trustProxy);
  app.use((request: Request, response: Response, next: NextFunction) => {
    const requestId = generateDashboardRequestId();
    const startedAt = Date.now();
    response.setHeader("x-request-id", requestId);
    response.setHeader("x-content-type-options", "nosniff");
    // API answers (JSON and errors) are per user and per moment: never stored by a browser or a proxy.
    // The web app's files and HTML set their own caching.
    response.setHeader("cache-control", "no-store");
    // One line per request when it finished (or the client left): ids, route pattern, outcome; never bodies or cookies.
    response.once("close", () => {
      logger.info("request", {
        request_id: requestId,
        method: request.method,
        route: request.route?.path === undefined ? "unmatched" : `${request.baseUrl}${String(request.route.path)}`,
        status: response.statusCode,
        duration_ms: Date.now() - startedAt,
      });
    });
    next();
  });
  // JSON bodies up to 1 MB, scanned before parsing (nesting, unpaired surrogates), as the gateway reads them.
  app.use(parseJsonBodyMiddleware({ limit: "1mb" }));
  app.get("/openapi.json", (_request, response) => {
    response.json(openApiDocument);
  });
  app.get("/healthz", (_request, response) => {
    response.json({ status: "ok" });
  });
  // Ready when the database answers (and Redis, when configured); 503 naming what failed, never 500.
  app.get("/readyz", async (_request, response) => {
    const redis = dependencies.redis ?? null;
    const report = await checkReadiness(
      {
        database: () => dependencies.database.prisma.$queryRawUnsafe("SELECT 1"),
        ...(redis === null ? {} : { redis: () => redis.ping() }),
      },
      { timeoutMs: settings.readinessTimeoutMs, onFailure: (name, error) => logger.warn(`Readiness check '${name}' failed.`, { error: error instanceof Error ? error.name : "unknown" }) },
    );
    response.status(report.ready ? 200 : 503).set("cache-control", "no-store").json({ status: report.ready ? "ready" : "unready", checks: report.checks });
  });
  const router = express.Router();
  mountRoutes(router, routes, {
    resolvePrincipal: (request) => resolvePrincipal(services, request),
    allowedOrigins: settings.origins,
  });
  app.use(router);
  if (webApp !== null) app.use(webApp);
  app.use((_request: Request, _response: Response, next: NextFunction) => {
    next(new GatewayError("not_found", { message: "No such endpoint." }));
  });
  app.use((error: unknown, _request: Request, response: Response, _next: NextFunction) => {
    sendDashboardError(response, error, logger);
  });
  return { app, routes, services };
}
