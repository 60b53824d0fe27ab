import { z } from "zod";

/** The data-plane `api-version` a deployments-style connection sends when it sets none (the current GA version). */
export const azureOpenAiDefaultApiVersion = "2024-10-21";
/** Microsoft Entra ID's public-cloud authority. */
export const entraDefaultAuthorityHost = "https://login.microsoftonline.com";

const modelId = z.string().regex(/^[A-Za-z0-9._:-]+\/[A-Za-z0-9._:@-]+$/, "use '<vendor>/<model>'").max(200);
const deploymentName = z.string().regex(/^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/, "a deployment name: 1-64 letters, digits, '.', '_' or '-'");
const apiVersion = z.string().regex(/^(\d{4}-\d{2}-\d{2}(-preview)?|preview|latest)$/, "an api-version such as '2024-10-21' or '2025-04-01-preview'");
const loopbackHost = /^(127\.\d+\.\d+\.\d+|localhost|\[::1\])$/;
/** https, or http to a loopback address only (a local identity server): the client secret never travels in the clear. */
const authorityHost = z
  .url({ protocol: /^https?$/ })
  .max(500)
  .refine((value) => {
    const url = new URL(value);
    return url.protocol === "https:" || loopbackHost.test(url.hostname);
  }, "must be an https URL");

/**
 * The `settings` an `azure-openai` connection accepts (strict: a misspelt field is refused). The
 * connection's `baseUrl` is the resource endpoint (`https://<resource>.openai.azure.com`); its
 * credential the `api-key`, or with `entra` the client secret of the app registration.
 */
export const azureOpenAiSettingsInputSchema = z.strictObject({
  /** `<vendor>/<model>` -> deployment name; a model left out is called by its upstream model name. */
  deployments: z.record(modelId, deploymentName).optional(),
  /** The `api-version` query parameter (deployments API; on the v1 API only when set). */
  apiVersion: apiVersion.optional(),
  /** `deployments`: `/openai/deployments/<deployment>/...?api-version=`; `v1`: `/openai/v1/...` with the deployment as `model` (and the Responses API). */
  apiStyle: z.enum(["deployments", "v1"]).optional(),
  /** Microsoft Entra ID client credentials instead of the `api-key` (the credential is the client secret). */
  entra: z
    .strictObject({
      tenantId: z.string().regex(/^[A-Za-z0-9.-]{1,100}$/, "a tenant id (GUID) or domain"),
      clientId: z.string().regex(/^[A-Za-z0-9-]{1,100}$/, "an application (client) id"),
      authorityHost: authorityHost.optional(),
    })
    .optional(),
});

/** Entra ID client credentials of a connection. */
export interface EntraSettings {
  tenantId: string;
  clientId: string;
  authorityHost: string;
}

/** The settings an `azure-openai` connection's models read. */
export interface AzureOpenAiSettings {
  deployments: Record<string, string>;
  /** Null: the default on the deployments API, none on the v1 API. */
  apiVersion: string | null;
  apiStyle: "deployments" | "v1";
  entra: EntraSettings | null;
}

/** Lenient: the stored settings were checked when written; a bad value takes the default. */
export const azureOpenAiSettingsSchema: z.ZodType<AzureOpenAiSettings> = z.object({
  deployments: z.record(z.string(), z.string()).catch({}).default({}),
  apiVersion: z.string().nullish().catch(null).transform((value) => value ?? null),
  apiStyle: z.enum(["deployments", "v1"]).catch("deployments").default("deployments"),
  entra: z
    .object({ tenantId: z.string().min(1), clientId: z.string().min(1), authorityHost: z.string().min(1).default(entraDefaultAuthorityHost) })
    .nullish()
    .catch(null)
    .transform((value) => value ?? null),
});
