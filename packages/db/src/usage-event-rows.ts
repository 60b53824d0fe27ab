import { z } from "zod";
import type { UsageAttempt } from "@gateway/contracts";

/** One attempt as stored in `usage_events.attempts` (snake_case JSON, as the activity API shows it). */
export interface StoredUsageAttempt {
  connection_id: string | null;
  provider: string | null;
  model: string | null;
  status: number | null;
  latency_ms: number;
  error_code: string | null;
  outcome: "served" | "retried" | "fell_back" | "failed";
  /** `upstream_5xx`, `rate_limited`, `connect_failure`, `timeout`, ...; null when served. */
  reason: string | null;
}

const storedUsageAttemptSchema = z.object({
  connection_id: z.string().nullable().catch(null),
  provider: z.string().nullable().catch(null),
  model: z.string().nullable().catch(null),
  status: z.number().int().nullable().catch(null),
  latency_ms: z.number().catch(0),
  error_code: z.string().nullable().catch(null),
  outcome: z.enum(["served", "retried", "fell_back", "failed"]).catch("failed"),
  reason: z.string().nullable().catch(null),
});

/** The stored form of the pipeline's attempts. */
export function toStoredUsageAttempts(attempts: readonly UsageAttempt[]): StoredUsageAttempt[] {
  return attempts.map((attempt) => ({
    connection_id: attempt.connectionId,
    provider: attempt.provider,
    model: attempt.model,
    status: attempt.status,
    latency_ms: Math.max(0, Math.round(attempt.latencyMs)),
    error_code: attempt.errorCode,
    outcome: attempt.outcome,
    reason: attempt.reason,
  }));
}

/**
 * Reads `usage_events.attempts` (a JSON value from Prisma, or its text from a raw SQLite query):
 * an array of attempts; anything else (older rows, damaged JSON) reads as no attempts.
 */
export function parseStoredUsageAttempts(value: unknown): StoredUsageAttempt[] {
  const parsed = typeof value === "string" ? safeJsonParse(value) : value;
  if (!Array.isArray(parsed)) return [];
  const attempts: StoredUsageAttempt[] = [];
  for (const item of parsed) {
    const result = storedUsageAttemptSchema.safeParse(item);
    if (result.success) attempts.push(result.data);
  }
  return attempts;
}

/**
 * Reads `usage_events.metadata` or `api_keys.default_metadata`: an object of string values;
 * non-string values and anything that is not an object are left out.
 */
export function parseStoredMetadata(value: unknown): Record<string, string> {
  const parsed = typeof value === "string" ? safeJsonParse(value) : value;
  const metadata: Record<string, string> = {};
  if (parsed === null || typeof parsed !== "object" || Array.isArray(parsed)) return metadata;
  for (const [key, item] of Object.entries(parsed as Record<string, unknown>)) if (typeof item === "string") metadata[key] = item;
  return metadata;
}

function safeJsonParse(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return null;
  }
}
