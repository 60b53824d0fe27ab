import { GatewayError } from "@gateway/errors";
import { createAnthropicAdapter } from "./anthropic-adapter.js";
import { createDemoAdapter } from "./demo-adapter.js";
import { createOpenAiAdapter } from "./openai-adapter.js";
import type { ProviderAdapterDependencies } from "./openai-adapter.js";
import type { ProviderAdapter, AdapterConnection } from "./provider-adapter.js";
import { createSystemOneAdapter } from "./systemone-adapter.js";

/**
 * The adapter for a connection, picked by its `kind`. Adapters hold no per-request state; the
 * caller may cache one per connection (and must create a new one when the connection changes).
 */
export function createProviderAdapter(connection: AdapterConnection, dependencies: ProviderAdapterDependencies): ProviderAdapter {
  switch (connection.kind) {
    case "openai":
      return createOpenAiAdapter(connection, dependencies);
    case "anthropic":
      return createAnthropicAdapter(connection, dependencies);
    case "systemone":
      return createSystemOneAdapter(connection, dependencies);
    case "demo":
      return createDemoAdapter();
    default:
      throw new GatewayError("internal_error", {
        message: `Unknown provider kind '${String((connection as { kind?: unknown }).kind)}'.`,
      });
  }
}
