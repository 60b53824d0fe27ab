import { z } from "zod";
import { translatedMaxTokensDefault } from "../../formats/messages/convert-chat-request-to-anthropic.js";

/** The settings a `vertex` connection reads. */
export interface VertexSettings {
  /** The Google Cloud project the models are called in (`projects/{project}`); null: not configured. */
  project: string | null;
  /** The Vertex AI location (`us-east5`, `europe-west1`, `global`); null: not configured. */
  location: string | null;
  /** `max_tokens` of translated requests to Claude without an output cap. */
  defaultMaxTokens: number;
}

// A location names the API host (`{location}-aiplatform.googleapis.com`): letters, digits and '-' only.
const locationSchema = z.string().regex(/^[a-z][a-z0-9-]{0,62}$/);
// Project ids, and the older domain-scoped ids (`example.com:project`).
const projectSchema = z.string().regex(/^[a-z0-9][a-z0-9.:-]{0,127}$/);

/**
 * The settings a person stores on a `vertex` connection (dashboard, config file): the project and
 * location every call needs, strict so a misspelt field is refused (400 naming it).
 */
export const vertexSettingsInputSchema = z.strictObject({
  project: projectSchema,
  location: locationSchema,
});

/**
 * Reads a `vertex` connection's settings (`settings.project`, `settings.location`) and its
 * `defaultMaxTokens`; lenient like every provider's schema: a missing or malformed value is null
 * (a call then fails with a clear error naming the setting) or the default.
 */
export const vertexSettingsSchema: z.ZodType<VertexSettings> = z
  .object({
    settings: z
      .object({
        project: projectSchema.nullish().catch(undefined),
        location: locationSchema.nullish().catch(undefined),
      })
      .nullish()
      .catch(undefined),
    defaultMaxTokens: z.number().int().positive().nullish().catch(undefined),
  })
  .transform((connection) => ({
    project: connection.settings?.project ?? null,
    location: connection.settings?.location ?? null,
    defaultMaxTokens: connection.defaultMaxTokens ?? translatedMaxTokensDefault,
  }));
