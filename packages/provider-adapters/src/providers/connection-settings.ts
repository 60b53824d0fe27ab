import { z } from "zod";
import { providerOf } from "./provider-registry.js";

/** The input schema of a provider without settings of its own: only `{}`. */
export const noConnectionSettingsSchema: z.ZodType<Record<string, unknown>> = z.strictObject({});

/**
 * The schema a connection's `settings` are checked with where a connection is written (the
 * dashboard API, the configuration file): the provider's strict input schema, or `{}` only for
 * a provider without one (and for a kind no provider registers).
 */
export function connectionSettingsInputSchema(kind: string): z.ZodType<Record<string, unknown>> {
  return providerOf(kind)?.settingsInputSchema ?? noConnectionSettingsSchema;
}

/** A refused settings object: the first issue, with the path of the bad field (`["deployments", "openai/gpt-4o"]`). */
export interface ConnectionSettingsIssue {
  path: string[];
  message: string;
}

/**
 * Checks a connection's settings against its kind's input schema: the settings as they are
 * stored (the schema's output), or the first issue.
 */
export function checkConnectionSettings(
  kind: string,
  settings: unknown,
): { ok: true; settings: Record<string, unknown> } | { ok: false; issue: ConnectionSettingsIssue } {
  const parsed = connectionSettingsInputSchema(kind).safeParse(settings);
  if (parsed.success) return { ok: true, settings: parsed.data };
  const issue = parsed.error.issues[0];
  const keys = issue?.code === "unrecognized_keys" ? issue.keys : [];
  const path = [...(issue?.path ?? []), ...keys.slice(0, 1)].map(String);
  const message =
    issue?.code === "unrecognized_keys"
      ? `${kind} connections have no setting '${keys.join("', '")}'`
      : (issue?.message ?? "invalid settings");
  return { ok: false, issue: { path, message } };
}
