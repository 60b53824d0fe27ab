import { GatewayError } from "@gateway/errors";
import { resolveApiUrl } from "../connection-api-url.js";
import { registeredProviders } from "../generated/providers.js";
import type { AdapterConnection, ProviderAdapter } from "../provider-adapter.js";
import type { ProviderAdapterDependencies, ProviderDefinition } from "./provider-definition.js";

// Built on first use: provider modules import shared code that reads the registry, so the
// definitions may not be evaluated yet when this module is.
let providersByKind: ReadonlyMap<string, ProviderDefinition> | undefined;

function providers(): ReadonlyMap<string, ProviderDefinition> {
  providersByKind ??= new Map(
    Object.entries(registeredProviders() as Record<string, ProviderDefinition>).map(([kind, provider]) => {
      if (provider.kind !== kind) throw new Error(`src/providers/${kind}/provider.ts defines the kind '${provider.kind}'; a provider's kind is its folder's name.`);
      return [kind, provider];
    }),
  );
  return providersByKind;
}

/** The provider of a connection kind, or undefined for a kind no provider folder registers. */
export function providerOf(kind: string): ProviderDefinition | undefined {
  return providers().get(kind);
}

/**
 * The URL of one upstream API path of a connection of `kind` (see {@link resolveApiUrl}), by its
 * provider's base-URL rule: `https://api.openai.com` and `https://api.openai.com/v1/` both give
 * `https://api.openai.com/v1/chat/completions`.
 */
export function connectionApiUrl(kind: string, baseUrl: string, path: string): string {
  return resolveApiUrl(baseUrl, path, providerOf(kind)?.baseUrlPathIsApiRoot === true);
}

/** Every registered provider (in kind order). */
export function registeredProviderList(): readonly ProviderDefinition[] {
  return [...providers().values()];
}

/**
 * A connection's settings as its provider reads them: the provider's settings schema over the
 * connection's `settings` merged under its own fields (see `ProviderDefinition.settingsSchema`).
 */
export function providerSettingsOf<Settings>(provider: ProviderDefinition<Settings>, connection: AdapterConnection): Settings {
  return provider.settingsSchema.parse({ ...connection.settings, ...connection });
}

/**
 * The models of a connection, one per capability its provider has (absent: the provider cannot
 * serve it). Models hold no per-request state; the caller may cache the result per connection
 * (and must create a new one when the connection changes).
 */
export function createProviderAdapter(connection: AdapterConnection, dependencies: ProviderAdapterDependencies): ProviderAdapter {
  const provider = providerOf(connection.kind);
  if (provider === undefined) {
    throw new GatewayError("internal_error", { message: `Unknown provider kind '${String((connection as { kind?: unknown }).kind)}'.` });
  }
  const settings = providerSettingsOf(provider, connection);
  // The provider's rules travel with the connection: code a provider imports reads no registry
  // (that would be an import cycle: registry -> provider -> shared code -> registry).
  const bound: AdapterConnection = { ...connection, baseUrlPathIsApiRoot: provider.baseUrlPathIsApiRoot, servesResponsesApi: provider.servesResponsesApi?.(connection) ?? false };
  // Every field present (undefined when the provider lacks the capability): one object shape for every adapter.
  return {
    kind: connection.kind,
    chat: provider.chat?.(bound, settings, dependencies),
    embeddings: provider.embeddings?.(bound, settings, dependencies),
    tokenCounter: provider.tokenCounter?.(bound, settings, dependencies),
    decisions: provider.decisions?.(bound, settings, dependencies),
  };
}
