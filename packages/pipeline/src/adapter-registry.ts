import {
  type HttpTransport,
  type ProviderAdapter,
  type SnapshotConnection,
  createProviderAdapter,
} from "@gateway/provider-adapters";

/** Hands out one adapter per connection object (a new snapshot brings new objects, hence new adapters). */
export interface AdapterRegistry {
  adapterFor(connection: SnapshotConnection): ProviderAdapter;
}

/** Creates an {@link AdapterRegistry} over a shared HTTP transport (pools per origin). */
export function createAdapterRegistry(settings: {
  transport: HttpTransport;
  /** Overrides adapter creation (tests, custom kinds). */
  createAdapter?: (connection: SnapshotConnection, options: { transport: HttpTransport }) => ProviderAdapter;
}): AdapterRegistry {
  const adapters = new WeakMap<SnapshotConnection, ProviderAdapter>();
  const create = settings.createAdapter ?? createProviderAdapter;
  return {
    adapterFor(connection) {
      let adapter = adapters.get(connection);
      if (adapter === undefined) {
        adapter = create(connection, { transport: settings.transport });
        adapters.set(connection, adapter);
      }
      return adapter;
    },
  };
}
