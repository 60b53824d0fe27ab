import type { ModelPrice } from "@gateway/contracts";
import type { z } from "zod";
import type { HttpTransport } from "../http-transport.js";
import type { AdapterConnection, ChatModel, DecisionModel, EmbeddingModel, TokenCounter } from "../provider-adapter.js";

/** Dependencies of the models of HTTP providers. */
export interface ProviderAdapterDependencies {
  transport: HttpTransport;
  /**
   * A `fetch` through the outbound address policy, for a provider's side requests that are not
   * model calls (identity token endpoints, STS); absent: `defaultOutboundFetch()` (the policy of
   * the environment).
   */
  fetch?: typeof fetch;
}

/** Creates one capability's model for a connection (its settings parsed by the provider's schema). */
export type ModelFactory<Model, Settings> = (connection: AdapterConnection, settings: Settings, dependencies: ProviderAdapterDependencies) => Model;

/**
 * One provider: everything the gateway knows of a connection kind, in the provider's folder
 * (`src/providers/<kind>/provider.ts` exports it as `provider`). The registry is generated from
 * the folders, so adding a provider touches no list outside its folder.
 */
export interface ProviderDefinition<Settings = unknown> {
  /** The connection kind (the folder's name). */
  readonly kind: string;
  /** The provider's name for people (dashboard, docs). */
  readonly label: string;
  /** Whether the provider calls an upstream at all (false: answers offline, needs no base URL or credential). */
  readonly network: boolean;
  /** The API a connection without a base URL calls; null: a connection must give one (when `network`). */
  readonly defaultBaseUrl: string | null;
  /**
   * Whether a base URL with a path of its own is already the API root (OpenAI-compatible APIs live
   * under their own prefix, `https://api.groq.com/openai/v1`); otherwise `/v1` is added unless
   * the path ends in it.
   */
  readonly baseUrlPathIsApiRoot: boolean;
  /** The headers that carry a connection's credential to the upstream (and the fixed headers its API requires). */
  credentialHeaders(credential: string | null): Record<string, string>;
  /**
   * The provider's own settings, read from the connection (the fields it uses; lenient: a bad
   * value takes the default). It parses the connection's `settings` object merged under the
   * connection's own fields (`{ ...connection.settings, ...connection }`), so a schema reads
   * `region` of the settings and `defaultMaxTokens` of the connection alike; a setting never
   * takes the name of a connection field.
   */
  readonly settingsSchema: z.ZodType<Settings>;
  /**
   * The strict schema of the connection's `settings` object where a connection is written (the
   * dashboard API answers 400 naming the bad field, the configuration file refuses to load);
   * its output is what is stored. Absent: the provider has no settings, only `{}` is accepted.
   * Its JSON Schema (`z.toJSONSchema`) is the dashboard's settings form.
   */
  readonly settingsInputSchema?: z.ZodType<Record<string, unknown>>;
  /** Model ids (`<vendor>/<model>`) a new connection of this kind offers, with prices where known. */
  readonly models?: readonly string[];
  readonly defaultPrices?: Readonly<Record<string, ModelPrice>>;
  /** Whether a connection's upstream serves the Responses API (models declared `responses` only are then served); absent: it does not. */
  servesResponsesApi?(connection: Pick<AdapterConnection, "baseUrl" | "responsesApi">): boolean;
  /**
   * The request the dashboard's connection test sends, for providers whose credential is not a
   * static header (signed requests, tokens fetched from an identity service); absent: `GET` the
   * API root's `/models` with {@link credentialHeaders}. `fetch` goes through the outbound
   * address policy (use it for token requests too).
   */
  connectionTest?(connection: AdapterConnection, settings: Settings, dependencies: { fetch: typeof fetch }): Promise<ConnectionTestRequest>;
  /** The capabilities: a factory per model the provider has; absent means the provider cannot serve it. */
  readonly chat?: ModelFactory<ChatModel, Settings>;
  readonly embeddings?: ModelFactory<EmbeddingModel, Settings>;
  readonly tokenCounter?: ModelFactory<TokenCounter, Settings>;
  readonly decisions?: ModelFactory<DecisionModel, Settings>;
}

/** An HTTP request that succeeds (2xx) when a connection's address and credential work. */
export interface ConnectionTestRequest {
  url: string;
  method: "GET" | "POST";
  headers: Record<string, string>;
  body?: string;
}

/** Types a provider definition (its settings inferred from its schema). */
export function defineProvider<Settings>(definition: ProviderDefinition<Settings>): ProviderDefinition<Settings> {
  return definition;
}
