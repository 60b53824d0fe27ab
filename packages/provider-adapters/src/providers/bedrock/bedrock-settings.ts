import { z } from "zod";

/** The region of a connection that names none. */
export const bedrockDefaultRegion = "us-east-1";

/** `maxTokens` sent when a request sets no output cap (Converse models differ in their own default; Claude requires one). */
export const bedrockDefaultMaxTokens = 4096;

const regionSchema = z.string().regex(/^[a-z]{2}(?:-[a-z]+)+-\d+$/);

/**
 * The settings of a `bedrock` connection (its `settings` record; no secrets: the credential
 * carries the keys). Lenient: a missing or malformed value takes its default.
 */
const bedrockSettingsFields = z.object({
  /** The AWS region of the Bedrock runtime endpoint (`bedrock-runtime.{region}.amazonaws.com`). */
  region: regionSchema.catch(bedrockDefaultRegion).default(bedrockDefaultRegion),
  /** A role to assume (STS `AssumeRole`) with the connection's keys or the AWS environment variables. */
  roleArn: z.string().startsWith("arn:").optional().catch(undefined),
  /** The `RoleSessionName` of the assumed role's sessions. */
  roleSessionName: z.string().regex(/^[\w+=,.@-]{2,64}$/).optional().catch(undefined),
  /** The `ExternalId` the role's trust policy may require. */
  externalId: z.string().min(2).max(1224).optional().catch(undefined),
  /** The STS endpoint (default `https://sts.{region}.amazonaws.com`). */
  stsEndpoint: z.string().url().optional().catch(undefined),
});

/**
 * The settings a person may store on a `bedrock` connection (dashboard, config file): strict, so a
 * misspelt or malformed field is refused (400 naming it) instead of silently taking its default.
 */
export const bedrockSettingsInputSchema = z.strictObject({
  region: regionSchema.optional(),
  roleArn: z.string().startsWith("arn:").optional(),
  roleSessionName: z.string().regex(/^[\w+=,.@-]{2,64}$/).optional(),
  externalId: z.string().min(2).max(1224).optional(),
  stsEndpoint: z.url({ protocol: /^https?$/ }).optional(),
});

/** A `bedrock` connection's settings, parsed. */
export type BedrockSettings = z.infer<typeof bedrockSettingsFields> & {
  /** `maxTokens` of requests without an output cap (the connection's `defaultMaxTokens`, else {@link bedrockDefaultMaxTokens}). */
  defaultMaxTokens: number;
};

/** Reads a connection's Bedrock settings (`settings` record, `defaultMaxTokens` column). */
export const bedrockSettingsSchema: z.ZodType<BedrockSettings> = z
  .object({
    settings: bedrockSettingsFields.catch(() => bedrockSettingsFields.parse({})).default(() => bedrockSettingsFields.parse({})),
    defaultMaxTokens: z.number().int().positive().nullish().catch(undefined),
  })
  .transform(({ settings, defaultMaxTokens }) => ({ ...settings, defaultMaxTokens: defaultMaxTokens ?? bedrockDefaultMaxTokens }));
