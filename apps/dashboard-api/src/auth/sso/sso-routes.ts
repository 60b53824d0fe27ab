import {
  consumeSsoLoginState,
  createSsoLoginState,
  findSsoOrganizationsByEmailDomain,
  getSsoClientCredential,
  getSsoConfiguration,
  hashToken,
  normalizeEmail,
  recordSsoTestResult,
  type SsoConfigurationRecord,
} from "@gateway/db";
import { GatewayError, normalizeError } from "@gateway/errors";
import { defaultOutboundFetch } from "@gateway/provider-adapters";
import * as openid from "openid-client";
import type { Request, Response } from "express";
import { z } from "zod";
import { readCookie, serializeSessionCookie } from "../../http/session-cookie.js";
import { defineRoute, type DashboardRoute } from "../../routing/dashboard-route.js";
import type { DashboardServices } from "../../services/dashboard-services.js";
import { recordAuditEvent } from "../../services/record-audit-event.js";
import { cookieIsSecure } from "../auth-routes.js";
import { authSessionSchema } from "../session-object.js";
import { createLoginSession, loadAuthSession } from "../session-store.js";
import { completeSsoSignIn } from "./complete-sso-sign-in.js";
import { mapSsoClaims } from "./map-sso-claims.js";
import { buildSsoAuthorizationUrl, discoverSsoProvider, exchangeSsoCode } from "./sso-provider-client.js";
import { renderSsoErrorPage } from "./render-sso-error-page.js";

/** The cookie that ties a started sign-in to the browser that started it (login CSRF). */
export const ssoStateCookieName = "gateway_sso_state";
/** How long a started sign-in may take at the provider. */
const stateTtlSeconds = 600;

/** Where the provider sends the browser back. */
export function ssoCallbackUrl(services: DashboardServices): string {
  return `${services.settings.publicUrl}/v1/auth/sso/callback`;
}

/** Where a browser starts single sign-on into an organization. */
export function ssoStartPath(organizationSlug: string, loginHint?: string): string {
  const query = new URLSearchParams({ organization: organizationSlug, ...(loginHint === undefined ? {} : { login_hint: loginHint }) });
  return `/v1/auth/sso/start?${query.toString()}`;
}

/** The `fetch` and timeout every request to a provider uses. */
function providerSettings(services: DashboardServices, configuration: SsoConfigurationRecord, credential: string | null) {
  return {
    issuerUrl: configuration.issuerUrl,
    clientId: configuration.clientId,
    clientAuthMethod: configuration.clientAuthMethod,
    clientCredential: credential,
    fetch: services.outboundFetch ?? defaultOutboundFetch(),
    timeoutMs: services.settings.deliveryTimeoutMs,
  };
}

/**
 * Starts a sign-in (or a test run) at the organization's provider: PKCE verifier, state and
 * nonce are made here, stored (state hashed, the others encrypted) for one use within ten
 * minutes, and the state is also set in a cookie of this browser. Answers the provider's
 * authorization URL.
 */
export async function beginSsoFlow(
  services: DashboardServices,
  input: { organizationId: string; purpose: "sign_in" | "test"; userId: string | null; loginHint?: string | undefined; request: Request; response: Response },
): Promise<URL> {
  const configuration = await getSsoConfiguration(services.database, input.organizationId);
  if (configuration === null || (!configuration.enabled && input.purpose === "sign_in")) {
    throw new GatewayError("not_found", { message: "Single sign-on is not set up for this organization." });
  }
  const credential = await getSsoClientCredential(services.database, input.organizationId, { secretBox: services.secrets });
  const provider = await discoverSsoProvider(providerSettings(services, configuration, credential));
  const state = openid.randomState();
  const nonce = openid.randomNonce();
  const codeVerifier = openid.randomPKCECodeVerifier();
  const now = services.now();
  await createSsoLoginState(
    services.database,
    {
      stateHash: hashToken(state),
      organizationId: input.organizationId,
      purpose: input.purpose,
      userId: input.userId,
      codeVerifier,
      nonce,
      expiresAt: new Date(now.getTime() + stateTtlSeconds * 1000),
      now,
    },
    { secretBox: services.secrets },
  );
  input.response.append("set-cookie", serializeStateCookie(state, stateTtlSeconds, cookieIsSecure(services, input.request)));
  return buildSsoAuthorizationUrl(provider, {
    redirectUri: ssoCallbackUrl(services),
    scopes: configuration.scopes,
    state,
    nonce,
    codeVerifier,
    loginHint: input.loginHint,
  });
}

function serializeStateCookie(value: string, maxAgeSeconds: number, secure: boolean): string {
  const parts = [`${ssoStateCookieName}=${value}`, "Path=/v1/auth/sso", `Max-Age=${maxAgeSeconds}`, "HttpOnly"];
  if (secure) parts.push("Secure");
  parts.push("SameSite=Lax");
  return parts.join("; ");
}

const discoverBody = z.object({ email: z.string().trim().min(3).max(320) });
const discoverySchema = z.object({
  object: z.literal("auth.sso_discovery"),
  organizations: z.array(
    z.object({
      name: z.string(),
      slug: z.string(),
      sso_required: z.boolean().describe("The organization refuses password sign-in (owners named in `DASHBOARD_SSO_BREAK_GLASS_EMAILS` aside)."),
      start_url: z.string().describe("Navigate the browser here to sign in through the organization's identity provider."),
    }),
  ),
});
const startQuery = z.object({
  organization: z.string().min(1).max(64).describe("The organization's slug (or id)."),
  login_hint: z.string().max(320).optional().describe("Passed to the identity provider to pre-fill the account."),
});
const callbackQuery = z.object({
  state: z.string().max(512).optional(),
  code: z.string().max(4096).optional(),
  error: z.string().max(200).optional(),
  error_description: z.string().max(1000).optional(),
  iss: z.string().max(2000).optional(),
  session_state: z.string().max(2000).optional(),
});
const testResultSchema = z.object({
  object: z.literal("sso.test_result"),
  id: z.string(),
  claims: z.record(z.string(), z.unknown()).describe("The validated ID token's claims (with userinfo's), as received."),
  email: z.string(),
  groups: z.array(z.string()),
  role: z.string().describe("The role a sign-in would give (mapped from the groups, else the default role)."),
  team_ids: z.array(z.string()),
  project_ids: z.array(z.string()),
});

/** Sends a browser on to the web app (or shows an error page when the API is served alone). */
function answerBrowserFailure(
  services: DashboardServices,
  context: { request: Request; response: Response; requestId: string },
  thrown: unknown,
  page: string,
  extra: Record<string, string> = {},
) {
  const error = normalizeError(thrown);
  if (error.status >= 500 && error.code === "internal_error") services.logger.error("request failed", { request_id: context.requestId, code: error.code });
  const message = error.status >= 500 && error.code === "internal_error" ? "Internal error." : error.message;
  if (services.settings.webRoot !== null) {
    const parameters = new URLSearchParams({ sso_error: error.code, message, request_id: context.requestId, ...extra });
    return { status: 303, headers: { location: `${page}?${parameters.toString()}`, "cache-control": "no-store" } };
  }
  context.response
    .status(error.status)
    .type("html")
    .set("cache-control", "no-store")
    .set("content-security-policy", "default-src 'none'; style-src 'unsafe-inline'")
    .send(renderSsoErrorPage({ code: error.code, message, requestId: context.requestId }));
  return undefined;
}

function wantsHtml(request: Request): boolean {
  return request.accepts(["json", "html"]) === "html";
}

/** The public single sign-on routes: discovery by email domain, start, callback. */
export function createSsoRoutes(services: DashboardServices): DashboardRoute[] {
  return [
    defineRoute({
      method: "post",
      path: "/v1/auth/sso/discover",
      operationId: "discover_sso",
      summary: "Find single sign-on by email domain",
      description:
        "Answers the organizations whose single sign-on accepts the email's domain, with where to start it. Says nothing about " +
        "whether an account exists: the answer depends on the domain alone. An empty list means: sign in with a password.",
      tag: "Authentication",
      access: "public",
      body: discoverBody,
      exampleBody: { email: "ada@example.com" },
      responses: [{ status: 200, description: "The organizations to sign in to through single sign-on", schema: discoverySchema }],
      async handler({ body }) {
        const email = normalizeEmail(body.email);
        const domain = email.includes("@") ? email.slice(email.lastIndexOf("@") + 1) : "";
        const matches = domain === "" ? [] : await findSsoOrganizationsByEmailDomain(services.database, domain);
        return {
          status: 200,
          headers: { "cache-control": "no-store" },
          body: {
            object: "auth.sso_discovery",
            organizations: matches.map((match) => ({
              name: match.name,
              slug: match.slug,
              sso_required: match.authenticationRequired === "sso",
              start_url: ssoStartPath(match.slug, body.email),
            })),
          },
        };
      },
    }),
    defineRoute({
      method: "get",
      path: "/v1/auth/sso/start",
      operationId: "start_sso",
      summary: "Start single sign-on",
      description:
        "A browser navigation: answers 303 to the organization's identity provider (authorization code flow with PKCE S256, " +
        "state and nonce; the state is also set in the `gateway_sso_state` cookie). Failures send a browser to the web app's " +
        "sign-in page with `sso_error`, `message` and `request_id` (an HTML page when the API is served alone); other callers get the JSON error.",
      tag: "Authentication",
      access: "public",
      query: startQuery,
      responses: [
        { status: 303, description: "To the identity provider" },
        { status: 502, description: "The identity provider is unreachable (`sso_provider_unavailable`)" },
      ],
      async handler(context) {
        const { request, response, query } = context;
        try {
          const organization = await services.database.prisma.organization.findFirst({
            where: { OR: [{ slug: query.organization }, { id: query.organization }] },
            select: { id: true },
          });
          if (organization === null) throw new GatewayError("not_found", { message: "Single sign-on is not set up for this organization." });
          const url = await beginSsoFlow(services, { organizationId: organization.id, purpose: "sign_in", userId: null, loginHint: query.login_hint, request, response });
          return { status: 303, headers: { location: url.toString(), "cache-control": "no-store" } };
        } catch (error) {
          if (!wantsHtml(request)) throw error;
          // The sign-in page keeps the email that was typed.
          return answerBrowserFailure(services, context, error, "/login", query.login_hint === undefined ? {} : { email: query.login_hint });
        }
      },
    }),
    defineRoute({
      method: "get",
      path: "/v1/auth/sso/callback",
      operationId: "sso_callback",
      summary: "Single sign-on callback",
      description:
        "Where the identity provider sends the browser back. The state must be one this dashboard started in this browser " +
        "(cookie), unused and at most ten minutes old; the ID token must be signed by a key the provider publishes, issued by " +
        "the configured issuer for the configured client, carry this sign-in's nonce and be unexpired. A sign-in ends like the " +
        "password login: the `auth.session` object and the `gateway_session` cookie (a browser is sent on to the web app at `/`). " +
        "Refusals answer 401 `sso_failed` or 403 `sso_not_allowed` saying why; an unreachable provider 502 `sso_provider_unavailable`; " +
        "a browser is sent to the sign-in page with the error instead.",
      tag: "Authentication",
      access: "public",
      query: callbackQuery,
      responses: [
        { status: 200, description: "The login session (JSON callers; a browser gets 303 to the web app)", schema: authSessionSchema.or(testResultSchema) },
        { status: 303, description: "A browser, to the web app" },
      ],
      async handler(context) {
        const { request, response, requestId } = context;
        const browser = wantsHtml(request);
        // The state cookie has done its work whatever happens next.
        response.append("set-cookie", serializeStateCookie("", 0, cookieIsSecure(services, request)));
        let purpose: "sign_in" | "test" = "sign_in";
        try {
          const result = await finishSsoCallback(services, context);
          purpose = result.purpose;
          if (result.purpose === "test") {
            if (browser && services.settings.webRoot !== null) {
              return { status: 303, headers: { location: `/organization?sso_test=${encodeURIComponent(result.body.id)}`, "cache-control": "no-store" } };
            }
            return { status: 200, body: result.body, headers: { "cache-control": "no-store" } };
          }
          response.append("set-cookie", result.cookie);
          if (browser) return { status: 303, headers: { location: "/", "cache-control": "no-store" } };
          return { status: 200, body: result.body, headers: { "cache-control": "no-store" } };
        } catch (error) {
          await recordAuditEvent(services, { request, requestId }, {
            organizationId: null,
            actorId: null,
            actorKind: "system",
            action: "auth.sso_failed",
            targetType: "sso",
            targetId: null,
            after: { code: normalizeError(error).code },
          }).catch(() => undefined);
          if (!browser) throw error;
          return answerBrowserFailure(services, context, error, purpose === "test" ? "/organization" : "/login");
        }
      },
    }),
  ];
}

type CallbackOutcome =
  | { purpose: "sign_in"; body: unknown; cookie: string }
  | { purpose: "test"; body: z.infer<typeof testResultSchema> };

async function finishSsoCallback(
  services: DashboardServices,
  context: { request: Request; requestId: string; query: z.infer<typeof callbackQuery> },
): Promise<CallbackOutcome> {
  const { request, query } = context;
  const state = query.state ?? "";
  if (state === "") throw new GatewayError("sso_failed", { message: "The callback carries no state: start the sign-in again." });
  const cookieState = readCookie(request, ssoStateCookieName);
  if (cookieState !== state) {
    throw new GatewayError("sso_failed", { message: "This sign-in was not started in this browser (state cookie missing or different): start it again." });
  }
  const started = await consumeSsoLoginState(services.database, hashToken(state), services.now(), { secretBox: services.secrets });
  if (started === null) {
    throw new GatewayError("sso_failed", { message: "The state is unknown, already used or expired: start the sign-in again." });
  }
  const configuration = await getSsoConfiguration(services.database, started.organizationId);
  if (configuration === null) throw new GatewayError("not_found", { message: "Single sign-on is no longer set up for this organization." });
  if (query.error !== undefined) {
    const description = query.error_description ? `: ${query.error_description}` : "";
    throw new GatewayError("sso_failed", { message: `The identity provider refused the sign-in (${query.error}${description}).` });
  }
  const credential = await getSsoClientCredential(services.database, started.organizationId, { secretBox: services.secrets });
  const provider = await discoverSsoProvider(providerSettings(services, configuration, credential));
  const callbackUrl = new URL(ssoCallbackUrl(services));
  for (const [name, value] of Object.entries(query)) if (value !== undefined) callbackUrl.searchParams.set(name, value);
  const claims = await exchangeSsoCode(provider, { callbackUrl, state, nonce: started.nonce, codeVerifier: started.codeVerifier });
  const issuer = provider.serverMetadata().issuer;
  const mapped = mapSsoClaims(claims, configuration);
  if (started.purpose === "test") {
    const body = {
      object: "sso.test_result" as const,
      id: started.id,
      claims,
      email: mapped.email,
      groups: mapped.groups,
      role: mapped.role,
      team_ids: mapped.teamIds,
      project_ids: mapped.projectIds,
    };
    await recordSsoTestResult(services.database, started.id, body);
    return { purpose: "test", body };
  }
  if (!configuration.enabled) throw new GatewayError("sso_not_allowed", { message: "Single sign-on is switched off for this organization." });
  const signedIn = await completeSsoSignIn(services, { configuration, issuer, mapped, context });
  const session = await createLoginSession(services, { userId: signedIn.userId, organizationId: configuration.organizationId, request });
  await recordAuditEvent(services, context, {
    organizationId: configuration.organizationId,
    actorId: signedIn.userId,
    action: "auth.login_sso",
    targetType: "login_session",
    targetId: session.id,
  });
  const body = await loadAuthSession(services, { userId: signedIn.userId, organizationId: configuration.organizationId, expiresAt: session.expiresAt });
  const cookie = serializeSessionCookie({ value: session.cookieValue, expiresAt: session.expiresAt, secure: cookieIsSecure(services, request), now: services.now() });
  return { purpose: "sign_in", body, cookie };
}

