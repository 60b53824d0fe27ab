/**
 * The kind of a provider connection, where packages meet (snapshot, repositories, routes). The
 * kinds are not listed here: each is a provider folder of `@gateway/provider-adapters`
 * (`src/providers/<kind>/`), whose registry gives the list and its schema (`providerKinds`,
 * `providerKindSchema`, zod alone from `@gateway/provider-adapters/kinds`). They are checked
 * where connections enter: the database's repositories, the dashboard API and the configuration
 * file.
 */
export type ConnectionKind = string;
