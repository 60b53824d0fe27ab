// CPU per call of the lookups a request makes in the control plane, as the control plane grows:
//   1. admission: selecting the caller's budgets and rate limits, then `admit` + `release` on the
//      memory store, at 10 + 10 and at 1,000 + 1,000 budgets and limits in the organization;
//   2. policy: `guardrailsForCaller` + `resolveModel` of an alias, for one hot key and for
//      100,000 distinct keys that share one policy chain (1,000 policies, 200 guardrail rules);
//   3. `GET /v1/models` (`runListModels`, 1,000 aliases): a key's first call, a hot key, and
//      the first calls of many distinct keys on one chain.
// It runs against the built packages, so the same script measures any commit (it uses the
// scope index of `@gateway/budget` when the build exports one, else the organization walk the
// admit stage did before).
// Usage: pnpm bench hot-path, or pnpm --filter @gateway/pipeline... build && node packages/pipeline/bench/hot-path-scale.mjs [--quick]
import { hash } from "node:crypto";
import * as budgetPackage from "@gateway/budget";
import { guardrailsForCaller, resolveModel } from "@gateway/policy-engine";
import { compileSnapshot, runListModels } from "../dist/index.js";

const quick = process.argv.includes("--quick");
const spreadKeys = quick ? 20_000 : 100_000;
const organizationId = "org_bench";
const projectCount = 1_000;
const routeCount = 1_000;
const policyCount = 1_000;
const guardrailRuleCount = 200;

/** Builds one organization's control plane; every key lives on project 0, which has one project policy. */
function buildSnapshot({ budgets, rateLimits }) {
  const projects = Array.from({ length: projectCount }, (_, index) => ({ id: `project_${index}`, organizationId, name: `Project ${index}`, captureContent: false }));
  const apiKeys = Array.from({ length: spreadKeys }, (_, index) => ({
    id: `key_${index}`,
    organizationId,
    projectId: "project_0",
    teamId: index % 2 === 0 ? "team_0" : null,
    name: `Key ${index}`,
    secretHash: hash("sha256", secretOf(index), "hex"),
    expiresAt: null,
    createdByUserId: null,
  }));
  const connections = Array.from({ length: 10 }, (_, index) => ({
    id: `connection_${index}`,
    organizationId,
    name: `provider${index}`,
    kind: "openai",
    baseUrl: "http://127.0.0.1:9/v1",
    credential: "sk-bench",
    headers: {},
    models: Array.from({ length: 20 }, (_, model) => `vendor/model-${model}`),
    upstreamModelNames: {},
    enabled: true,
    prices: {},
    logprobs: null,
    defaultMaxTokens: null,
    timeouts: {},
    responsesApi: null,
    modelEndpoints: {},
  }));
  const routes = Array.from({ length: routeCount }, (_, index) => ({
    id: `route_${index}`,
    organizationId,
    alias: `alias-${index}`,
    strategy: "priority",
    targets: [
      { model: `provider${index % 10}/vendor/model-${index % 20}`, weight: 1 },
      { model: `provider${(index + 1) % 10}/vendor/model-${index % 20}`, weight: 1 },
    ],
    affinity: { enabled: false, ttlSeconds: 0 },
    retry: { maxAttempts: 1 },
  }));
  const rulesPerPolicy = 4;
  const policies = Array.from({ length: policyCount }, (_, index) => {
    const scope = index === 0 ? "organization" : "project";
    const guarded = index * rulesPerPolicy < guardrailRuleCount;
    return {
      id: `policy_${index}`,
      organizationId,
      scope,
      scopeId: scope === "organization" ? organizationId : `project_${index - 1}`,
      allow: [],
      deny: [`provider9/vendor/model-${index % 20}`, `alias-9${index % 100}*`],
      guardrails: guarded
        ? {
            rules: [
              { type: "regex", name: `ticket-${index}`, action: "redact", pattern: `TICKET-${index}-[0-9]{4,8}` },
              { type: "blocked_terms", name: `terms-${index}`, action: "flag", terms: [`codename-${index}`, `falcon-${index}`] },
              { type: "pii", name: `pii-${index}`, action: "redact", detectors: ["email", "payment_card"] },
              { type: "secrets", name: `secrets-${index}`, action: "block" },
            ],
          }
        : null,
    };
  });
  const snapshot = {
    version: `bench-${budgets}-${rateLimits}-${Math.random()}`,
    organizations: [{ id: organizationId, name: "Bench", slug: "bench" }],
    projects,
    apiKeys,
    connections,
    routes,
    policies,
    budgets: Array.from({ length: budgets }, (_, index) => budgetAt(index, budgets)),
    rateLimits: Array.from({ length: rateLimits }, (_, index) => rateLimitAt(index)),
    mcpServers: [],
    mcpTokens: [],
  };
  return snapshot;
}

/** Budgets over every scope; the benchmark's caller (key_0, project_0, team_0) is under four of them. */
function budgetAt(index, total) {
  let scope = ["project", "key", "team"][index % 3];
  let scopeId = `${scope}_${index + 10}`;
  let mode = index % 2 === 0 ? "hard" : "soft";
  if (index === 0) [scope, scopeId, mode] = ["organization", organizationId, "soft"];
  else if (index === 1) [scope, scopeId, mode] = ["project", "project_0", "hard"];
  else if (index === 2) [scope, scopeId, mode] = ["team", "team_0", "soft"];
  else if (index === total - 1) [scope, scopeId, mode] = ["key", "key_0", "hard"];
  return { id: `budget_${index}`, organizationId, name: `Budget ${index}`, scope, scopeId, amountMicros: 1e15, period: "month", mode, thresholds: [0.5, 0.8, 1] };
}

/** Rate limits on projects and keys; the caller is under two of them. */
function rateLimitAt(index) {
  let scope = index % 2 === 0 ? "project" : "key";
  let scopeId = `${scope}_${index + 10}`;
  if (index === 0) [scope, scopeId] = ["project", "project_0"];
  else if (index === 1) [scope, scopeId] = ["key", "key_0"];
  return { id: `limit_${index}`, organizationId, scope, scopeId, windowSeconds: 60, requestsPerWindow: 1e9, tokensPerWindow: 1e12, concurrency: 1e6 };
}

function secretOf(index) {
  return `gak_bench_${String(index).padStart(8, "0")}`;
}

function callerOf(index) {
  return { organizationId, projectId: "project_0", apiKeyId: `key_${index}`, teamId: index % 2 === 0 ? "team_0" : null };
}

/** Wall time after which a measurement stops early (the per-call figure stays exact: it divides by the calls made). */
const measureLimitMs = quick ? 1_500 : 4_000;

/** CPU microseconds (user + system) per call of `body`, after `warmup` untimed calls; at most `iterations` calls. */
async function cpuPerCall(iterations, body, warmup = Math.min(2_000, iterations)) {
  for (let index = 0; index < warmup; index++) await body(index);
  const start = process.cpuUsage();
  const wallStart = performance.now();
  let calls = 0;
  while (calls < iterations && (calls % 256 !== 0 || performance.now() - wallStart < measureLimitMs)) await body(calls++);
  const used = process.cpuUsage(start);
  return (used.user + used.system) / calls;
}

/** Like {@link cpuPerCall} for a synchronous body, without warm-up (first calls are what some rows measure). */
function syncCpuPerCall(iterations, body, limitMs = measureLimitMs) {
  const start = process.cpuUsage();
  const wallStart = performance.now();
  let calls = 0;
  while (calls < iterations && (calls % 256 !== 0 || performance.now() - wallStart < limitMs)) body(calls++);
  const used = process.cpuUsage(start);
  return (used.user + used.system) / calls;
}

const format = (value) => value.toFixed(value < 10 ? 2 : 1);
const indexed = typeof budgetPackage.compileBudgetIndex === "function";
console.log(`build: ${indexed ? "budget scope index (compileBudgetIndex)" : "organization walk (no compileBudgetIndex)"}; ${spreadKeys.toLocaleString("en")} keys, ${projectCount} projects, ${routeCount} routes, ${policyCount} policies (${guardrailRuleCount} guardrail rules)`);

// 1. Admission -----------------------------------------------------------------------------
console.log("\nadmission (select the caller's budgets and limits; then admit + release on the memory store), us of CPU per call");
for (const size of [10, 1_000]) {
  const compiled = compileSnapshot(buildSnapshot({ budgets: size, rateLimits: size }));
  const select = indexed
    ? (caller) => ({ budgets: compiled.budgetIndex.budgetsFor(caller), rateLimits: compiled.budgetIndex.rateLimitsFor(caller) })
    : (caller) => ({
        budgets: (compiled.budgetsByOrganization.get(caller.organizationId) ?? []).filter((budget) => budgetPackage.budgetAppliesTo(budget, caller)),
        rateLimits: (compiled.rateLimitsByOrganization.get(caller.organizationId) ?? []).filter((limit) => budgetPackage.rateLimitAppliesTo(limit, caller)),
      });
  // What admit receives from the admit stage: before, the organization's whole lists (admit filters them).
  const admitInputOf = indexed
    ? (caller) => select(caller)
    : (caller) => ({ budgets: compiled.budgetsByOrganization.get(caller.organizationId) ?? [], rateLimits: compiled.rateLimitsByOrganization.get(caller.organizationId) ?? [] });
  const caller = callerOf(0);
  const selected = select(caller);
  const selectUs = syncCpuPerCall(200_000, () => select(caller));
  const controller = budgetPackage.createAdmissionController({ store: budgetPackage.createMemoryStore() });
  const admitted = await cpuPerCall(quick ? 10_000 : 40_000, async () => {
    const admission = await controller.admit({ ...caller, ...admitInputOf(caller), estimatedCostMicros: 1_000, estimatedTokens: 100 });
    await admission.release();
  });
  console.log(
    `  ${String(size).padStart(5)} budgets + ${String(size).padStart(5)} limits (${selected.budgets.length} + ${selected.rateLimits.length} apply): select ${format(selectUs)} us, admit+release ${format(admitted)} us`,
  );
}

// 2. Guardrails and model resolution ---------------------------------------------------------
console.log("\npolicy (guardrailsForCaller + resolveModel of an alias), us of CPU per call");
{
  const compiled = compileSnapshot(buildSnapshot({ budgets: 10, rateLimits: 10 }));
  const lookup = (index) => {
    const caller = callerOf(index);
    const guardrails = guardrailsForCaller({ index: compiled.access, ...caller });
    const resolution = resolveModel({ index: compiled.access, ...caller, requestedModel: `alias-${index % 50}` });
    if (resolution.kind !== "route" || !guardrails.hasInputRules) throw new Error("unexpected resolution");
  };
  const firstHot = syncCpuPerCall(1, () => lookup(0));
  const hot = syncCpuPerCall(200_000, () => lookup(0));
  const spreadFirst = syncCpuPerCall(spreadKeys, (index) => lookup(index), Number.POSITIVE_INFINITY);
  const spreadAgain = syncCpuPerCall(spreadKeys, (index) => lookup(index), Number.POSITIVE_INFINITY);
  console.log(`  first call of the chain: ${format(firstHot)} us`);
  console.log(`  one hot key: ${format(hot)} us`);
  console.log(`  ${spreadKeys.toLocaleString("en")} distinct keys on one chain, first pass: ${format(spreadFirst)} us; second pass: ${format(spreadAgain)} us`);
}

// 3. GET /v1/models ---------------------------------------------------------------------------
console.log("\nGET /v1/models (runListModels), us of CPU per call");
{
  const snapshot = buildSnapshot({ budgets: 10, rateLimits: 10 });
  let compiled = compileSnapshot(snapshot);
  const dependencies = { snapshots: { current: () => compiled }, usage: { enqueue() {} }, requestTimeoutMs: 30_000 };
  let modelCount = 0;
  const list = (index) => {
    const response = runListModels(dependencies, { requestId: "req_bench", headers: { authorization: `Bearer ${secretOf(index)}` } });
    if (response.status !== 200) throw new Error(`status ${response.status}`);
    modelCount = response.body.data.length;
  };
  const firstEver = syncCpuPerCall(1, () => list(0));
  // Reloads: the same rows as new objects under a new version, on a warmed-up process (median of 11).
  const afterReloads = [];
  for (let reload = 0; reload < 11; reload++) {
    const copy = (rows) => rows.map((row) => ({ ...row }));
    compiled = compileSnapshot({ ...snapshot, version: `${snapshot.version}-${reload}`, connections: copy(snapshot.connections), routes: copy(snapshot.routes), policies: copy(snapshot.policies) });
    afterReloads.push(syncCpuPerCall(1, () => list(0)));
  }
  const firstAfterReload = afterReloads.sort((left, right) => left - right)[5];
  const hot = syncCpuPerCall(quick ? 200 : 1_000, () => list(0));
  const distinct = quick ? 100 : 300;
  const spread = syncCpuPerCall(distinct, (index) => list(1 + index), Number.POSITIVE_INFINITY);
  console.log(`  ${modelCount} models listed; first call of the process: ${format(firstEver)} us; first call after a reload (median of 11): ${format(firstAfterReload)} us`);
  console.log(`  one hot key: ${format(hot)} us; first calls of ${distinct} other keys on the chain: ${format(spread)} us`);
}
