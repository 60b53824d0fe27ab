// Types of fuzz-setup.mjs (for the TypeScript fuzz test files).

/** The secrets written into the fuzz configuration file. */
export interface FuzzSecrets {
  apiKey: string;
  cappedApiKey: string;
  ownerEmail: string;
  ownerPassword: string;
  openAiCredential: string;
  anthropicCredential: string;
  nativeCredential: string;
}
export declare function writeFuzzConfig(options: { directory: string; mockUrl: string }): { configPath: string; secrets: FuzzSecrets };
export declare function secretValues(secrets: FuzzSecrets): string[];

/** A gateway route and valid bodies of it. */
export interface GatewayCase {
  method: "GET" | "POST" | "DELETE";
  path: string;
  bodies: Record<string, unknown>[];
}
export declare function gatewayCases(): GatewayCase[];
