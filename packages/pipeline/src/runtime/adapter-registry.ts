import {
  type HttpTransport,
  type ProviderAdapter,
  type AdapterConnection,
  createProviderAdapter,
} from "@gateway/provider-adapters";

/**
 * Hands out one adapter per connection object (a new snapshot brings new objects, hence new
 * adapters: a connection whose settings, credential or address changed gets models built from
 * the new values): the models of the connection's provider, one per capability it has.
 */
export interface AdapterRegistry {
  adapterFor(connection: AdapterConnection): ProviderAdapter;
}

/** Creates an {@link AdapterRegistry} over a shared HTTP transport (pools per origin). */
export function createAdapterRegistry(settings: {
  transport: HttpTransport;
  /** A `fetch` through the outbound address policy for providers' token requests (default: the environment's policy). */
  fetch?: typeof fetch;
  /** Overrides adapter creation (tests); by default the provider registry's (`createProviderAdapter`). */
  createAdapter?: (connection: AdapterConnection, options: { transport: HttpTransport; fetch?: typeof fetch }) => ProviderAdapter;
}): AdapterRegistry {
  const adapters = new WeakMap<AdapterConnection, ProviderAdapter>();
  const create = settings.createAdapter ?? createProviderAdapter;
  return {
    adapterFor(connection) {
      let adapter = adapters.get(connection);
      if (adapter === undefined) {
        adapter = create(connection, { transport: settings.transport, ...(settings.fetch === undefined ? {} : { fetch: settings.fetch }) });
        adapters.set(connection, adapter);
      }
      return adapter;
    },
  };
}
