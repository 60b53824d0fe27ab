import { z } from "zod";
import { providerKinds } from "../generated/provider-kinds.js";

export { providerKinds };

/**
 * A connection kind the gateway has a provider for (one of {@link providerKinds}): what the
 * database, the dashboard and the configuration file check a connection's `kind` against.
 * Zod only, so packages that validate kinds load no provider (`@gateway/provider-adapters/kinds`).
 */
export const providerKindSchema = z.enum(providerKinds);

/** A registered provider kind. */
export type RegisteredProviderKind = z.infer<typeof providerKindSchema>;
