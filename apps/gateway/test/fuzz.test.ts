import { randomBytes } from "node:crypto";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startMockProvider, type BenchMockProvider } from "../../../scripts/bench/mock-provider.mjs";
import { gatewayCases, secretValues, writeFuzzConfig, type FuzzSecrets } from "../../../scripts/fuzz/fuzz-setup.mjs";
import {
  answerProblems,
  assertProperty,
  authorizationShapes,
  contentTypes,
  extraHeaders,
  focusedBody,
  headerText,
  hostileBody,
  hostileSegment,
} from "../../../scripts/fuzz/hostile-input.mjs";
import { startGateway } from "../src/start-gateway.js";
import { createTemporaryDirectory } from "./support/temporary-directory.js";

// Property-based tests over every route of the served gateway (inference, stored responses,
// models, MCP, operations): whatever body, headers and key a client sends, the answer is never a
// 5xx, always carries `x-request-id`, errors are the documented error body, and neither the
// caller's key nor a connection's provider credential ever appears in it. The gateway runs on
// SQLite with a configuration file (a connection of every kind to a mock provider speaking the
// providers' wire formats); runs are seeded and bounded (FUZZ_RUNS per property, default 30).
//
// On main before the other parts of issue 12 are merged these properties find 500s (deep JSON,
// numbers beyond 2^53 under a hard budget, inherited property names like `__proto__` or
// `valueOf` in translated bodies, Node's parser-level rejections without an id): they fail
// only because of those pending fixes and must pass once parts A and B are merged.

const runs = Number(process.env.FUZZ_RUNS ?? "30");
const seed = Number(process.env.FUZZ_SEED ?? "1212");
/** Smaller than `pnpm fuzz` uses, so that the file stays within CI time. */
const sizes = { hugeLength: 32 * 1024, deepDepths: [1000, 10_000, 50_000] };

let mock: BenchMockProvider;
let gateway: Awaited<ReturnType<typeof startGateway>>;
let secrets: FuzzSecrets;
let directory: { path: string; remove(): void };
let storedResponseId = "resp_missing";
const internalErrors = new Map<string, string>();

beforeAll(async () => {
  mock = await startMockProvider();
  directory = createTemporaryDirectory("gateway-fuzz-");
  const written = writeFuzzConfig({ directory: directory.path, mockUrl: mock.url });
  secrets = written.secrets;
  gateway = await startGateway({
    env: { GATEWAY_SECRET_KEY: randomBytes(32).toString("base64"), GATEWAY_CONFIG: written.configPath, GATEWAY_ADMIN_PASSWORD: "fuzz admin password" },
    settings: { port: 0, host: "127.0.0.1", dataDirectory: directory.path, metricsPort: null, usageFlushMs: 50 },
    logger: {
      info: () => {},
      error: (message, error, fields) => {
        const requestId = typeof fields?.request_id === "string" ? fields.request_id : "";
        internalErrors.set(requestId, `${message} ${error instanceof Error ? error.message : String(error ?? "")}`);
      },
    },
  });
  const stored = await fetch(`${gateway.url}/v1/responses`, {
    method: "POST",
    headers: { authorization: `Bearer ${secrets.apiKey}`, "content-type": "application/json" },
    body: JSON.stringify({ model: "openai-mock/openai/gpt-4o-mini", input: "Say hello.", store: true }),
  });
  expect(stored.status, await stored.clone().text()).toBe(200);
  storedResponseId = ((await stored.json()) as { id: string }).id;
}, 60_000);

afterAll(async () => {
  await gateway?.close();
  await mock?.close();
  directory?.remove();
});

/** Sends one request and answers why its answer breaks the rules (empty: it does not). */
async function send(request: { method: string; path: string; headers: Record<string, string | undefined>; body?: string }): Promise<string[]> {
  const headers = Object.fromEntries(Object.entries(request.headers).filter((entry): entry is [string, string] => entry[1] !== undefined));
  const response = await fetch(`${gateway.url}${request.path}`, { method: request.method, headers, ...(request.body === undefined ? {} : { body: request.body }) });
  const text = await response.text();
  const problems = answerProblems({ status: response.status, headers: response.headers, text }, { errorBody: "gateway", secrets: [...secretValues(secrets), "fuzz admin password"] });
  if (problems.length === 0) return [];
  const requestId = response.headers.get("x-request-id") ?? "";
  return [
    `${request.method} ${request.path} -> ${response.status}: ${problems.join("; ")}`,
    `answer: ${text.slice(0, 300)}`,
    `internal error: ${internalErrors.get(requestId) ?? "(none logged)"}`,
    `body: ${(request.body ?? "").slice(0, 400)}${(request.body?.length ?? 0) > 400 ? `... (${request.body!.length} characters)` : ""}`,
    `headers: ${JSON.stringify(headers).slice(0, 400)}`,
  ];
}

const withBodies = gatewayCases().filter((route) => route.bodies.length > 0);
const withoutBodies = gatewayCases().filter((route) => route.bodies.length === 0);
const keyShapes = () => fc.oneof(authorizationShapes(secrets.apiKey), authorizationShapes(secrets.cappedApiKey));

describe("the gateway under hostile input", () => {
  it.each(withBodies.map((route) => [`${route.method} ${route.path}`, route] as const))(
    "%s: generated bodies, content types, keys and headers never cost a 5xx, an id or a secret",
    async (_name, route) => {
      await assertProperty(
        fc.asyncProperty(hostileBody(route.bodies, sizes), fc.constantFrom(...contentTypes), keyShapes(), extraHeaders, async (body, contentType, authorization, extra) => {
          const problems = await send({ method: route.method, path: route.path, headers: { ...extra, "content-type": contentType, authorization }, body });
          if (problems.length > 0) throw new Error(problems.join("\n"));
        }),
        { numRuns: runs, seed, endOnFailure: true },
      );
    },
    60_000,
  );

  // The classes issue 12 names, a few runs each per route with a valid key: inherited property
  // names (part B), numbers beyond their domain under a hard budget and with prices (part B) and
  // deep nesting inside forwarded fields (part A). These fail on main until those parts land.
  const classes = ["inherited", "numbers", "deep"] as const;
  it.each(withBodies.flatMap((route) => classes.map((focus) => [`${route.method} ${route.path}`, focus, route] as const)))(
    "%s, %s: no 5xx",
    async (_name, focus, route) => {
      await assertProperty(
        fc.asyncProperty(focusedBody(route.bodies, focus, sizes), fc.constantFrom(secrets.apiKey, secrets.cappedApiKey), async (body, key) => {
          const problems = await send({ method: route.method, path: route.path, headers: { "content-type": "application/json", authorization: `Bearer ${key}` }, body });
          if (problems.length > 0) throw new Error(problems.join("\n"));
        }),
        { numRuns: Math.ceil(runs / 2), seed, endOnFailure: true },
      );
    },
    60_000,
  );

  it("routes without a body, with hostile ids, queries, keys and headers", async () => {
    await assertProperty(
      fc.asyncProperty(
        fc.constantFrom(...withoutBodies),
        fc.oneof(fc.constant(storedResponseId), hostileSegment),
        fc.oneof(fc.constant(""), headerText.map((query) => `?${encodeURI(query)}`), fc.constantFrom("?limit=-1", "?limit=1e400", "?order=__proto__", "?after=%E0%A4%A", "?limit=99999999999999999999")),
        keyShapes(),
        extraHeaders,
        async (route, id, query, authorization, extra) => {
          const problems = await send({ method: route.method, path: `${route.path.replace("{id}", id)}${query}`, headers: { ...extra, authorization } });
          if (problems.length > 0) throw new Error(problems.join("\n"));
        },
      ),
      { numRuns: runs * 3, seed, endOnFailure: true },
    );
  }, 60_000);

  it("paths and methods outside the routes answer the documented 404 or 405", async () => {
    await assertProperty(
      fc.asyncProperty(
        fc.constantFrom("GET", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"),
        fc.oneof(
          fc.constantFrom("/", "/v1", "/v1/", "/V1/CHAT/COMPLETIONS/", "/v1/chat/completions/extra", "/v1//models", "//v1/models", "/v1/%E0%A4%A", "/%", "/v1/responses/%", "/__proto__", "/v1/models/..%2F..%2F"),
          hostileSegment.map((segment) => `/v1/${segment}`),
        ),
        keyShapes(),
        async (method, path, authorization) => {
          const problems = await send({ method, path, headers: { authorization } });
          if (problems.length > 0) throw new Error(problems.join("\n"));
        },
      ),
      { numRuns: runs * 2, seed, endOnFailure: true },
    );
  }, 60_000);
});
