import type { SnapshotApiKey, SnapshotMcpToken } from "@gateway/contracts";
import { ShardedMap } from "./sharded-map.js";

/** Entries handled between two yields to the event loop while sweeping. */
const sweepChunk = 20_000;

/**
 * The per-key part of the served snapshot: API keys by secret hash and by id, MCP tokens by
 * hash. Unlike the rest of a compiled snapshot it is changed in place, row by row, so that a
 * revoked key is one map deletion and no second copy of a million keys is ever built.
 *
 * Records are compact: one hidden class per kind, the organization, project, team and user ids
 * shared between the keys that name them (one string per distinct id, not one per key), the
 * hash map's key is the record's own `secretHash` string. About 320 bytes per key on the
 * V8 heap (both maps included; measured in `scripts/bench/control-plane-keys.mjs`).
 */
export class ApiKeyStore {
  // Sharded: growing one Map of a million keys would rehash it all in one go.
  readonly apiKeysByHash = new ShardedMap<SnapshotApiKey>();
  readonly apiKeysById = new ShardedMap<SnapshotApiKey>();
  readonly mcpTokensByHash = new ShardedMap<SnapshotMcpToken>();
  readonly mcpTokensById = new ShardedMap<SnapshotMcpToken>();
  /** One string per distinct organization, project, team and user id. */
  private readonly sharedIds = new Map<string, string>();
  /** Ids changed by deltas while a full reload runs: its (older) page rows must not overwrite them. */
  private changedDuringReload: Set<string> | null = null;

  /** A store holding the given rows (tests and sources without deltas). */
  static from(apiKeys: readonly SnapshotApiKey[], mcpTokens: readonly SnapshotMcpToken[] = []): ApiKeyStore {
    const store = new ApiKeyStore();
    for (const key of apiKeys) store.putApiKey(key);
    for (const token of mcpTokens) store.putMcpToken(token);
    return store;
  }

  /** Adds or replaces a key (a record equal to the one held is kept, not replaced). */
  putApiKey(key: SnapshotApiKey): void {
    const existing = this.apiKeysById.get(key.id);
    // A full reload reads every key again: an unchanged one allocates nothing that outlives the page.
    if (existing !== undefined && sameApiKey(existing, key)) return;
    const record = this.compactApiKey(key);
    if (existing !== undefined) this.apiKeysByHash.delete(existing.secretHash);
    this.apiKeysById.set(record.id, record);
    this.apiKeysByHash.set(record.secretHash, record);
  }

  /** Removes a key (revoked or deleted); an unknown id is ignored. */
  deleteApiKey(id: string): void {
    const existing = this.apiKeysById.get(id);
    if (existing === undefined) return;
    this.apiKeysById.delete(id);
    this.apiKeysByHash.delete(existing.secretHash);
  }

  /**
   * Applies the rows read for some changed ids: each id with an active row is added or
   * replaced, each id without one is removed.
   */
  applyApiKeys(ids: Iterable<string>, rows: readonly SnapshotApiKey[]): void {
    const active = new Map(rows.map((row) => [row.id, row]));
    for (const id of ids) {
      this.changedDuringReload?.add(`k${id}`);
      const row = active.get(id);
      if (row === undefined) this.deleteApiKey(id);
      else this.putApiKey(row);
    }
  }

  /** Adds or replaces an MCP token. */
  putMcpToken(token: SnapshotMcpToken): void {
    const existing = this.mcpTokensById.get(token.id);
    if (existing !== undefined && sameMcpToken(existing, token)) return;
    const record = this.compactMcpToken(token);
    if (existing !== undefined) this.mcpTokensByHash.delete(existing.tokenHash);
    this.mcpTokensById.set(record.id, record);
    this.mcpTokensByHash.set(record.tokenHash, record);
  }

  /** Removes an MCP token; an unknown id is ignored. */
  deleteMcpToken(id: string): void {
    const existing = this.mcpTokensById.get(id);
    if (existing === undefined) return;
    this.mcpTokensById.delete(id);
    this.mcpTokensByHash.delete(existing.tokenHash);
  }

  /** {@link applyApiKeys} for MCP tokens. */
  applyMcpTokens(ids: Iterable<string>, rows: readonly SnapshotMcpToken[]): void {
    const active = new Map(rows.map((row) => [row.id, row]));
    for (const id of ids) {
      this.changedDuringReload?.add(`t${id}`);
      const row = active.get(id);
      if (row === undefined) this.deleteMcpToken(id);
      else this.putMcpToken(row);
    }
  }

  /**
   * Starts a full reload in place: feed it every active row page by page, then `finish()`
   * removes what no page named. Deltas applied meanwhile win over the pages (their rows are
   * newer), so deltas may keep running during a long reload.
   */
  beginReload(): ApiKeyStoreReload {
    const changed = new Set<string>();
    this.changedDuringReload = changed;
    // Sharded for the reason the maps are: a Set of a million ids grows by rehashing it whole.
    const seenKeys = new ShardedMap<true>();
    const seenTokens = new ShardedMap<true>();
    return {
      putApiKeys: (rows) => {
        for (const row of rows) {
          seenKeys.set(row.id, true);
          if (!changed.has(`k${row.id}`)) this.putApiKey(row);
        }
      },
      putMcpTokens: (rows) => {
        for (const row of rows) {
          seenTokens.set(row.id, true);
          if (!changed.has(`t${row.id}`)) this.putMcpToken(row);
        }
      },
      finish: async (yieldToEventLoop) => {
        let handled = 0;
        // Map iterators stay valid across deletions and the deltas' insertions between yields.
        for (const id of this.apiKeysById.keys()) {
          if (!seenKeys.has(id) && !changed.has(`k${id}`)) this.deleteApiKey(id);
          if (++handled % sweepChunk === 0) await yieldToEventLoop();
        }
        for (const id of this.mcpTokensById.keys()) {
          if (!seenTokens.has(id) && !changed.has(`t${id}`)) this.deleteMcpToken(id);
        }
        if (this.changedDuringReload === changed) this.changedDuringReload = null;
      },
      abandon: () => {
        if (this.changedDuringReload === changed) this.changedDuringReload = null;
      },
    };
  }

  private share(id: string): string;
  private share(id: string | null): string | null;
  private share(id: string | null): string | null {
    if (id === null) return null;
    const shared = this.sharedIds.get(id);
    if (shared !== undefined) return shared;
    this.sharedIds.set(id, id);
    return id;
  }

  private compactApiKey(key: SnapshotApiKey): SnapshotApiKey {
    return new ApiKeyRecord(
      key.id,
      this.share(key.organizationId),
      this.share(key.projectId),
      this.share(key.teamId),
      key.name,
      key.secretHash.toLowerCase(),
      key.expiresAt,
      this.share(key.createdByUserId),
      key.defaultMetadata ?? noMetadata,
    );
  }

  private compactMcpToken(token: SnapshotMcpToken): SnapshotMcpToken {
    return {
      id: token.id,
      organizationId: this.share(token.organizationId),
      apiKeyId: token.apiKeyId,
      serverId: this.share(token.serverId),
      userId: this.share(token.userId),
      tokenHash: token.tokenHash.toLowerCase(),
      expiresAt: token.expiresAt,
    };
  }
}

/** A reload in place started by {@link ApiKeyStore.beginReload}. */
export interface ApiKeyStoreReload {
  putApiKeys(rows: readonly SnapshotApiKey[]): void;
  putMcpTokens(rows: readonly SnapshotMcpToken[]): void;
  /** Removes the rows no page named (yielding between chunks). */
  finish(yieldToEventLoop: () => Promise<void>): Promise<void>;
  /** Gives the reload up (it failed); what it put stays. */
  abandon(): void;
}

/** One hidden class for every key, its fields in one order. */
class ApiKeyRecord implements SnapshotApiKey {
  constructor(
    readonly id: string,
    readonly organizationId: string,
    readonly projectId: string,
    readonly teamId: string | null,
    readonly name: string,
    readonly secretHash: string,
    readonly expiresAt: Date | null,
    readonly createdByUserId: string | null,
    readonly defaultMetadata: Readonly<Record<string, string>>,
  ) {}
}

/** Keys without default metadata (nearly all) share one frozen empty object. */
const noMetadata: Readonly<Record<string, string>> = Object.freeze({});

function sameMetadata(left: Readonly<Record<string, string>> | undefined, right: Readonly<Record<string, string>> | undefined): boolean {
  const leftKeys = Object.keys(left ?? noMetadata);
  const rightKeys = Object.keys(right ?? noMetadata);
  return leftKeys.length === rightKeys.length && leftKeys.every((key) => left![key] === right?.[key]);
}

function sameApiKey(left: SnapshotApiKey, right: SnapshotApiKey): boolean {
  return (
    left.organizationId === right.organizationId &&
    left.projectId === right.projectId &&
    left.teamId === right.teamId &&
    left.name === right.name &&
    sameHash(left.secretHash, right.secretHash) &&
    sameDate(left.expiresAt, right.expiresAt) &&
    left.createdByUserId === right.createdByUserId &&
    sameMetadata(left.defaultMetadata, right.defaultMetadata)
  );
}

function sameMcpToken(left: SnapshotMcpToken, right: SnapshotMcpToken): boolean {
  return (
    left.organizationId === right.organizationId &&
    left.apiKeyId === right.apiKeyId &&
    left.serverId === right.serverId &&
    left.userId === right.userId &&
    sameHash(left.tokenHash, right.tokenHash) &&
    sameDate(left.expiresAt, right.expiresAt)
  );
}

/** The held hash is lower-case; the stored one normally is too (no new string then). */
function sameHash(held: string, stored: string): boolean {
  return held === stored || held === stored.toLowerCase();
}

function sameDate(left: Date | null, right: Date | null): boolean {
  if (left === null || right === null) return left === right;
  return new Date(left).getTime() === new Date(right).getTime();
}
