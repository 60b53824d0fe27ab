// Model access and resolution
export type { AccessCaller, AccessConnection, AccessPolicy, AccessRoute, AccessSnapshot } from "./access-snapshot.js";
export { AccessIndex, ChainCache, compileAccessIndex, compilePolicy, defaultChainCacheEntries } from "./access-index.js";
export type { AccessIndexSettings, CompiledPattern, CompiledPolicy, OrganizationAccess, PolicyChain, ScopePolicies } from "./access-index.js";
export { compileGlob, matchesGlob } from "./glob-pattern.js";
export { evaluateModelPolicy } from "./evaluate-model-policy.js";
export type { PolicyDecision, PolicyRule } from "./evaluate-model-policy.js";
export { resolveModel } from "./resolve-model.js";
export type {
  ModelResolution,
  ResolveModelOptions,
  ResolvedRouteTarget,
  ResolvedTarget,
  SkippedRouteTarget,
} from "./resolve-model.js";
export { listAllowedModels, listModelsWithoutPolicies } from "./list-allowed-models.js";
export type { AllowedModel } from "./list-allowed-models.js";
export { mcpPolicySubject } from "./mcp-policy-subject.js";
export type { McpCapabilityKind } from "./mcp-policy-subject.js";
export { evaluateMcpAccess, mcpAccessDeniedError } from "./evaluate-mcp-access.js";
export type { EvaluateMcpAccessOptions } from "./evaluate-mcp-access.js";

// Guardrails
export {
  guardrailActionSchema,
  guardrailRuleSchema,
  guardrailsConfigSchema,
  parseGuardrailsConfig,
  piiDetectorSchema,
  secretDetectorSchema,
} from "./guardrails-config.js";
export type {
  GuardrailAction,
  GuardrailRule,
  GuardrailsConfig,
  GuardrailsConfigInput,
  PiiDetector,
  SecretDetector,
} from "./guardrails-config.js";
export { findUnsafeRegexConstruct } from "./find-unsafe-regex-construct.js";
export { isValidIban, isValidLuhn, isValidPaymentCard, isValidUsSsn } from "./guardrail-detectors.js";
export { regexEvaluationWindowCharacters } from "./compiled-guardrail-rule.js";
export { compileGuardrails, noGuardrails } from "./compile-guardrails.js";
export type { CompiledGuardrails, GuardrailResult } from "./compile-guardrails.js";
export type { OutputScanResult, OutputScanner, OutputScannerOptions } from "./create-output-scanner.js";
export { applyInputGuardrails } from "./apply-input-guardrails.js";
export { applyOutputGuardrails } from "./apply-output-guardrails.js";
export type { BodyGuardrailsResult } from "./apply-input-guardrails.js";
export { guardrailsForCaller } from "./guardrails-for-caller.js";

// Routing
export { selectTargets, reportTargetFailure, reportTargetSuccess } from "./select-targets.js";
export type { SelectTargetsOptions, SelectableRoute, TargetSelection } from "./select-targets.js";
export { createAffinityKey } from "./affinity-store.js";
export type { AffinityStore } from "./affinity-store.js";
export { createMemoryAffinityStore } from "./create-memory-affinity-store.js";
export type { MemoryAffinityStoreSettings } from "./create-memory-affinity-store.js";
export { validateSessionHeader } from "./validate-session-header.js";
export { createLatencyTracker } from "./create-latency-tracker.js";
export type { LatencyTracker, LatencyTrackerSettings } from "./create-latency-tracker.js";
export { retryDelayMs, parseRetryAfterMs } from "./retry-delay-ms.js";
export type { RetryDelayOptions } from "./retry-delay-ms.js";
export { isRetryableError, isTransientUpstreamStatus } from "./is-retryable-error.js";
export { allowsFallback } from "./allows-fallback.js";
export { isConnectFailure } from "./connect-failure.js";
