import { z } from "zod";
import { geminiDefaultApiVersion } from "./gemini-endpoint.js";

/** The settings a `gemini` connection reads. */
export interface GeminiSettings {
  /** False when the connection's models reject `responseLogprobs` (decisions then use stated probabilities). */
  logprobs: boolean;
  /** The API version of a base URL without one (`v1beta`: function calling, JSON schemas, thinking). */
  apiVersion: string;
}

/**
 * Reads a `gemini` connection's settings: `logprobs` (the connection's field; unset: true) and
 * `settings.apiVersion` (`v1beta`, `v1` or `v1alpha`; default `v1beta`). Lenient: a bad value
 * takes the default.
 */
export const geminiSettingsSchema: z.ZodType<GeminiSettings> = z
  .object({
    logprobs: z.boolean().nullish().catch(undefined),
    settings: z
      .object({ apiVersion: z.enum(["v1beta", "v1", "v1alpha"]).optional().catch(undefined) })
      .nullish()
      .catch(undefined),
  })
  .transform((connection) => ({ logprobs: connection.logprobs !== false, apiVersion: connection.settings?.apiVersion ?? geminiDefaultApiVersion }));
