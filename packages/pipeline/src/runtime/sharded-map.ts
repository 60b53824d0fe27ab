/** Shards of a {@link ShardedMap} (a power of two). */
const shardCount = 64;

/**
 * A `Map` split into 64 maps by a cheap hash of the key. V8 grows (and shrinks) a `Map` by
 * rehashing all of it at once: at a million entries one growth holds the event loop for tens of
 * milliseconds, while a shard holds a sixty-fourth of the entries. Reads cost one more array
 * index. Iteration order is by shard, not by insertion.
 */
export class ShardedMap<V> implements ReadonlyMap<string, V> {
  private readonly shards: Map<string, V>[] = Array.from({ length: shardCount }, () => new Map<string, V>());
  private count = 0;

  get size(): number {
    return this.count;
  }

  get(key: string): V | undefined {
    return this.shardOf(key).get(key);
  }

  has(key: string): boolean {
    return this.shardOf(key).has(key);
  }

  set(key: string, value: V): this {
    const shard = this.shardOf(key);
    const before = shard.size;
    shard.set(key, value);
    this.count += shard.size - before;
    return this;
  }

  delete(key: string): boolean {
    const deleted = this.shardOf(key).delete(key);
    if (deleted) this.count -= 1;
    return deleted;
  }

  forEach(callback: (value: V, key: string, map: ReadonlyMap<string, V>) => void, thisArgument?: unknown): void {
    for (const [key, value] of this) callback.call(thisArgument, value, key, this);
  }

  *entries(): MapIterator<[string, V]> {
    for (const shard of this.shards) yield* shard.entries();
  }

  *keys(): MapIterator<string> {
    for (const shard of this.shards) yield* shard.keys();
  }

  *values(): MapIterator<V> {
    for (const shard of this.shards) yield* shard.values();
  }

  [Symbol.iterator](): MapIterator<[string, V]> {
    return this.entries();
  }

  private shardOf(key: string): Map<string, V> {
    // The last two characters: hex hashes and generated ids vary most there.
    const length = key.length;
    const mixed = length === 0 ? 0 : key.charCodeAt(length - 1) * 31 + (length > 1 ? key.charCodeAt(length - 2) : 0);
    return this.shards[mixed & (shardCount - 1)]!;
  }
}
