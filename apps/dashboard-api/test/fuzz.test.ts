import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  answerProblems,
  assertProperty,
  contentTypes,
  focusedBody,
  headerText,
  hostileBody,
  hostileSegment,
  hostileStrings,
  hostileNumbers,
} from "../../../scripts/fuzz/hostile-input.mjs";
import { createDashboardOpenApiDocument } from "../src/openapi/create-dashboard-openapi-document.js";
import { dashboardOrigin, startTestDashboard, type TestDashboard } from "./support/test-dashboard.js";
import { fillPath, seedResources, type ResourceIds } from "./support/seed-resources.js";

// Property-based tests over every route of the dashboard's OpenAPI document, signed in as an
// owner and without a session: whatever body, query, ids, content type, origin and cookie a
// client sends, the answer is never a 5xx, always carries `x-request-id`, errors are the
// documented dashboard error body, and no secret (a connection credential, a channel's signing
// secret, a password, the session token) appears in it. Seeded and bounded (FUZZ_RUNS).
//
// On main before the other parts of issue 12 are merged these properties find 500s (deep JSON,
// lone surrogates reaching the database, `POST /api/mcp/servers` with a URL that is no URL,
// malformed percent-encoding in paths): they fail only because of those pending fixes (part A)
// and must pass once it is merged.

const runs = Number(process.env.FUZZ_RUNS ?? "15");
const seed = Number(process.env.FUZZ_SEED ?? "1212");
const sizes = { hugeLength: 32 * 1024, deepDepths: [1000, 10_000, 50_000] };

interface Operation {
  method: string;
  path: string;
  public: boolean;
  example: unknown;
  query: { name: string; schema: Record<string, unknown> }[];
}

/** Every operation of the OpenAPI document, with its example body and query parameters. */
function operations(): Operation[] {
  const document = createDashboardOpenApiDocument();
  const found: Operation[] = [];
  for (const [path, methods] of Object.entries(document.paths)) {
    for (const [method, operation] of Object.entries(methods as Record<string, any>)) {
      const parameters = (operation.parameters ?? []) as { name: string; in: string; schema: Record<string, unknown> }[];
      found.push({
        method: method.toUpperCase(),
        path,
        public: (operation.security as unknown[]).length === 0,
        example: operation.requestBody?.content?.["application/json"]?.example,
        query: parameters.filter((parameter) => parameter.in === "query"),
      });
    }
  }
  return found;
}

const credential = "sk-dashboard-fuzz-credential-0123456789";
const channelSecret = "0123456789abcdef0123";
let harness: TestDashboard;
let ids: ResourceIds;
let owner: { email: string; password: string };
let ownerCookie = "";
let organizationId = "";

beforeAll(async () => {
  harness = await startTestDashboard({
    dependencies: { playground: { chat: async () => ({ kind: "json", status: 200, headers: {}, body: { object: "chat.completion", choices: [] } }) } },
  });
  organizationId = (await harness.createOrganization()).id;
  owner = await harness.createMember({ organizationId, role: "owner" });
  ownerCookie = await harness.login(owner.email, owner.password);
  ids = await seedResources(harness, { organizationId, cookie: ownerCookie });
  const connection = await harness.request("POST", "/api/connections", { cookie: ownerCookie, body: { name: "secret-holder", kind: "openai", credential, models: ["openai/gpt-4o-mini"] } });
  expect(connection.status, connection.text).toBe(201);
}, 60_000);
afterAll(async () => harness?.close());

const secrets = () => [credential, channelSecret, owner.password, ownerCookie.slice(ownerCookie.indexOf("=") + 1)];

interface FuzzRequest {
  method: string;
  path: string;
  headers: Record<string, string | undefined>;
  body?: string;
}

/** Sends one request and answers why its answer breaks the rules (empty: it does not). */
async function send(request: FuzzRequest): Promise<string[]> {
  const headers = Object.fromEntries(Object.entries(request.headers).filter((entry): entry is [string, string] => entry[1] !== undefined));
  const withBody = request.body !== undefined && request.method !== "GET" && request.method !== "HEAD";
  const response = await fetch(`${harness.url}${request.path}`, { method: request.method, headers, redirect: "manual", ...(withBody ? { body: request.body } : {}) });
  const text = await response.text();
  // Tests and the OAuth start reach the configured system (unreachable here) by design.
  const upstreamFailures = /\/(test|oauth)(\?|$)/.test(request.path);
  const problems = answerProblems({ status: response.status, headers: response.headers, text }, { errorBody: "dashboard", secrets: secrets(), upstreamFailures });
  if (response.status === 401 && request.headers.cookie === ownerCookie) sessionLost = true;
  if (problems.length === 0) return [];
  return [
    `${request.method} ${request.path} -> ${response.status}: ${problems.join("; ")}`,
    `answer: ${text.slice(0, 300)}`,
    `body: ${(request.body ?? "").slice(0, 400)}${(request.body?.length ?? 0) > 400 ? `... (${request.body!.length} characters)` : ""}`,
    `headers: ${JSON.stringify(headers).slice(0, 300)}`,
  ];
}

/** A query value for one parameter: in its domain or far outside it. */
function queryValue(schema: Record<string, unknown>): fc.Arbitrary<string> {
  const inDomain: fc.Arbitrary<string>[] = [fc.constant("1"), fc.constant("2026-01-01T00:00:00Z")];
  if (Array.isArray(schema.enum)) inDomain.push(fc.constantFrom(...(schema.enum as string[])));
  return fc.oneof(
    ...inDomain,
    fc.constantFrom(...hostileStrings.filter((value) => !/[\ud800-\udfff]/.test(value))),
    fc.constantFrom(...hostileNumbers.map(String)),
    headerText,
  );
}

/** A query string for an operation: some of its parameters (or unknown and inherited names), some repeated. */
function queryString(operation: Operation): fc.Arbitrary<string> {
  const names = [...operation.query.map((parameter) => parameter.name), "__proto__", "constructor", "unknown"];
  return fc
    .array(fc.tuple(fc.constantFrom(...names), fc.constantFrom(...operation.query.map((parameter) => parameter.schema), {}).chain(queryValue)), { maxLength: 4 })
    .map((pairs) => (pairs.length === 0 ? "" : `?${pairs.map(([name, value]) => `${name}=${encodeURIComponent(value)}`).join("&")}`));
}

/** The path with its ids: the seeded resources' (the route then works), missing ones, or hostile segments. */
function pathOf(operation: Operation): fc.Arbitrary<string> {
  if (!operation.path.includes("{")) return fc.constant(operation.path);
  return fc.oneof(
    { arbitrary: fc.constant(fillPath(operation.path, ids)), weight: 3 },
    { arbitrary: hostileSegment.map((segment) => operation.path.replace(/\{[a-z_]+\}/g, segment)), weight: 2 },
  );
}

/** The request of one operation, signed in (`signedIn`) or with no, a forged or a malformed session. */
function requestOf(operation: Operation, signedIn: boolean): fc.Arbitrary<FuzzRequest> {
  const cookie = signedIn
    ? fc.constant(ownerCookie)
    : fc.oneof(
        fc.constant(undefined),
        fc.constantFrom("gateway_session=", "gateway_session=forged0000000000000000", "gateway_session=%E0%A4%A", "gateway_session=__proto__", "gateway_session", "=", "a=b; gateway_session=x; gateway_session=y"),
        headerText.map((value) => `gateway_session=${value}`),
      );
  const origin = fc.oneof({ arbitrary: fc.constant(dashboardOrigin), weight: 4 }, { arbitrary: fc.constantFrom(undefined, "null", "http://evil.test", "%"), weight: 1 });
  const body = operation.example === undefined ? fc.oneof(fc.constant(undefined), hostileBody({}, sizes)) : hostileBody(operation.example, sizes);
  return fc.record({ path: pathOf(operation), query: queryString(operation), cookie, origin, contentType: fc.constantFrom(...contentTypes), body }).map((parts) => ({
    method: operation.method,
    path: `${parts.path}${parts.query}`,
    headers: { cookie: parts.cookie, origin: parts.origin, "content-type": parts.body === undefined ? undefined : parts.contentType },
    ...(parts.body === undefined ? {} : { body: parts.body }),
  }));
}

let sessionLost = false;

/** Signs in again when a request ended the owner's session (a logout answers 200, then the cookie is refused). */
async function keepSignedIn(request: FuzzRequest): Promise<void> {
  if (!sessionLost && !request.path.startsWith("/v1/auth/logout")) return;
  sessionLost = false;
  ownerCookie = await harness.login(owner.email, owner.password);
}

const all = operations();

describe("the dashboard under hostile input", () => {
  it("enumerates the routes of the OpenAPI document", () => {
    expect(all.length).toBeGreaterThan(80);
    expect(all.filter((operation) => operation.example !== undefined).length).toBeGreaterThan(20);
  });

  /** The operations by resource (`/api/teams`, `/v1/auth`, ...): one property each. */
  const groups = [...new Set(all.map((operation) => operation.path.split("/").slice(0, 3).join("/")))];

  it.each(groups)(
    "%s, signed in as an owner: no 5xx, always an id and the documented error, no secret",
    async (group) => {
      const chosen = all.filter((operation) => operation.path.split("/").slice(0, 3).join("/") === group);
      await assertProperty(
        fc.asyncProperty(fc.constantFrom(...chosen).chain((operation) => requestOf(operation, true)), async (request) => {
          const problems = await send(request);
          await keepSignedIn(request);
          if (problems.length > 0) throw new Error(problems.join("\n"));
        }),
        { numRuns: runs, seed, endOnFailure: true },
      );
    },
    60_000,
  );

  // The classes issue 12 names, on every route with a body, signed in: lone surrogates reaching
  // the database or a URL parser, inherited property names, numbers beyond their domain, deep
  // nesting. The surrogate and deep classes fail on main until part A lands.
  const withBody = all.filter((operation) => operation.example !== undefined && operation.path !== "/v1/auth/logout");
  it.each(["surrogates", "inherited", "numbers", "deep"] as const)(
    "routes with a body, %s: no 5xx",
    async (focus) => {
      await assertProperty(
        fc.asyncProperty(
          fc.constantFrom(...withBody).chain((operation) => fc.tuple(fc.constant(operation), focusedBody(operation.example, focus, sizes))),
          async ([operation, body]) => {
            // The seeded resources' ids: the body is what is under test here.
            const path = fillPath(operation.path, ids);
            const signedIn = operation.path !== "/v1/auth/login" && operation.path !== "/v1/auth/invitations/accept";
            const request = { method: operation.method, path, headers: { cookie: signedIn ? ownerCookie : undefined, origin: dashboardOrigin, "content-type": "application/json" }, body };
            const problems = await send(request);
            await keepSignedIn(request);
            if (problems.length > 0) throw new Error(problems.join("\n"));
          },
        ),
        { numRuns: runs * 3, seed, endOnFailure: true },
      );
    },
    60_000,
  );

  it("every route without a session (none, forged or malformed cookies, wrong origins)", async () => {
    await assertProperty(
      fc.asyncProperty(fc.constantFrom(...all).chain((operation) => requestOf(operation, false)), async (request) => {
        const problems = await send(request);
        if (problems.length > 0) throw new Error(problems.join("\n"));
      }),
      { numRuns: runs * 4, seed, endOnFailure: true },
    );
  }, 60_000);
});
