import type { Redis } from "ioredis";
import type {
  AdmissionPlan,
  AdmissionPlanOutcome,
  BudgetCounterState,
  Clock,
  CounterStore,
  RateLimitCounterState,
  RateLimitReadStep,
  SeedOutcome,
  SeedStep,
  SettlementPlan,
  SettlementPlanOutcome,
  TokenWindowSeedStep,
} from "./counter-store.js";
import { admitScript, readBudgetsScript, readRateLimitsScript, seedBudgetScript, seedTokenWindowScript, settleScript } from "./redis-scripts.js";

/** Settings of {@link createRedisStore}. */
export interface RedisStoreSettings {
  /**
   * An ioredis 5 client (single node). Owned by the caller: the store never closes it. All
   * keys of one admission are used by one script, so on Redis Cluster put a hash tag in the
   * prefix (`{gw}:`) to keep them in one slot.
   */
  redis: Redis;
  /** Prepended to every key, e.g. `gateway:`. Required, so tenants of a shared Redis stay apart. */
  keyPrefix: string;
  /**
   * Time source (epoch ms), default `Date.now`. Windows, leases and period keys use it; all
   * gateway instances sharing the Redis should have synchronised clocks (NTP). Key TTLs are
   * computed relative to it, so a shifted test clock still expires keys correctly.
   */
  clock?: Clock;
  /**
   * A command that has not answered after this many ms fails (the admission controller then
   * applies its failure policy). Commands also fail at once while the client is disconnected.
   * Default 1000.
   */
  commandTimeoutMs?: number;
}

type ScriptCommand = (...args: (string | number)[]) => Promise<unknown>;

const unavailableStatuses = new Set(["end", "close", "reconnecting"]);

/** Counters read by one script call (a status page of 1,000 budgets: 10 calls of a few ms of Redis time each). */
const readsPerCall = 100;

/**
 * A {@link CounterStore} on Redis, shared by every gateway instance. Each operation is one Lua
 * script (`defineCommand`, sent as EVALSHA) over all of its keys, so an admission is atomic and
 * all-or-nothing across budgets and limits, and costs one round trip.
 */
export function createRedisStore(settings: RedisStoreSettings): CounterStore {
  const { redis, keyPrefix } = settings;
  if (typeof keyPrefix !== "string" || keyPrefix.length === 0) throw new TypeError("keyPrefix must be a non-empty string.");
  const clock = settings.clock ?? Date.now;
  const timeoutMs = settings.commandTimeoutMs ?? 1000;

  const commands = redis as unknown as Record<string, ScriptCommand | undefined>;
  if (typeof commands.gatewayBudgetAdmit !== "function") redis.defineCommand("gatewayBudgetAdmit", { lua: admitScript });
  if (typeof commands.gatewayBudgetSettle !== "function") redis.defineCommand("gatewayBudgetSettle", { lua: settleScript });
  if (typeof commands.gatewayBudgetsRead !== "function") redis.defineCommand("gatewayBudgetsRead", { lua: readBudgetsScript });
  if (typeof commands.gatewayBudgetSeed !== "function") redis.defineCommand("gatewayBudgetSeed", { lua: seedBudgetScript });
  if (typeof commands.gatewayTokenWindowSeed !== "function") redis.defineCommand("gatewayTokenWindowSeed", { lua: seedTokenWindowScript });
  if (typeof commands.gatewayRateLimitsRead !== "function") redis.defineCommand("gatewayRateLimitsRead", { lua: readRateLimitsScript });

  function call(name: string, args: (string | number)[]): Promise<unknown> {
    if (unavailableStatuses.has(redis.status)) {
      return Promise.reject(new Error(`Redis is not connected (status ${redis.status}).`));
    }
    return timed(commands[name]!.apply(redis, args));
  }

  /**
   * Reads counters `readsPerCall` at a time: one script call per chunk (all chunks sent at once),
   * so reading 1,000 budgets is 10 calls, and Redis serves other clients between chunks.
   */
  async function readInChunks<T>(
    name: string,
    count: number,
    argsOf: (from: number, to: number) => (string | number)[],
    replyWidth: number,
    decode: (reply: number[], offset: number) => T,
  ): Promise<T[]> {
    const calls: Promise<unknown>[] = [];
    for (let from = 0; from < count; from += readsPerCall) calls.push(call(name, argsOf(from, Math.min(count, from + readsPerCall))));
    const results: T[] = [];
    for (const reply of (await Promise.all(calls)) as number[][]) {
      for (let offset = 0; offset + replyWidth <= reply.length; offset += replyWidth) results.push(decode(reply, offset));
    }
    return results;
  }

  function timed<T>(command: Promise<T>): Promise<T> {
    if (timeoutMs <= 0) return command;
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`Redis did not answer within ${timeoutMs} ms.`)), timeoutMs);
      command.then(
        (value) => {
          clearTimeout(timer);
          resolve(value);
        },
        (error: unknown) => {
          clearTimeout(timer);
          reject(error);
        },
      );
    });
  }

  return {
    clock,
    async admit(plan: AdmissionPlan): Promise<AdmissionPlanOutcome> {
      const keys: string[] = [];
      const args: (string | number)[] = [
        plan.now,
        plan.admissionId,
        plan.leaseExpiresAt,
        plan.requestLimits.length,
        plan.tokenLimits.length,
        plan.concurrencyLimits.length,
        plan.reservations.length,
      ];
      for (const step of plan.requestLimits) {
        keys.push(keyPrefix + step.key);
        args.push(step.limit, step.windowMs);
      }
      for (const step of plan.tokenLimits) {
        keys.push(keyPrefix + step.key, `${keyPrefix}${step.key}:h`);
        args.push(step.limit, step.windowMs, step.tokens, step.rebuild ? 1 : 0);
      }
      for (const step of plan.concurrencyLimits) {
        keys.push(keyPrefix + step.key);
        args.push(step.limit);
      }
      for (const step of plan.reservations) {
        keys.push(keyPrefix + step.key, `${keyPrefix}${step.key}:z`);
        args.push(step.limitMicros, step.amountMicros, step.expiresAt ?? -1);
      }
      const reply = (await call("gatewayBudgetAdmit", [keys.length, ...keys, ...args])) as [string, number?, number?, number?];
      const kind = reply[0];
      if (kind === "ok") return { admitted: true };
      if (kind === "unseeded") {
        const budgets = Number(reply[1]);
        const indexes = reply.slice(2).map(Number);
        return { admitted: false, kind, indexes: indexes.slice(0, budgets), tokenIndexes: indexes.slice(budgets) };
      }
      if (kind === "budget") {
        return { admitted: false, kind, index: Number(reply[1]), spentMicros: Number(reply[2]), reservedMicros: Number(reply[3]) };
      }
      if (kind === "requests" || kind === "tokens" || kind === "concurrency") {
        return { admitted: false, kind, index: Number(reply[1]), retryAfterMs: Number(reply[2]) };
      }
      throw new Error(`Unexpected reply from the admission script: ${String(kind)}`);
    },
    async settle(plan: SettlementPlan): Promise<SettlementPlanOutcome> {
      const keys: string[] = [];
      const args: (string | number)[] = [
        plan.now,
        plan.admissionId,
        plan.spends.length,
        plan.tokenCorrections.length,
        plan.concurrencyReleases.length,
      ];
      for (const step of plan.spends) {
        keys.push(keyPrefix + step.key, `${keyPrefix}${step.key}:z`);
        args.push(step.amountMicros, step.expiresAt ?? -1, step.thresholds.length);
        for (const threshold of step.thresholds) args.push(threshold.name, threshold.micros);
      }
      for (const correction of plan.tokenCorrections) {
        keys.push(`${keyPrefix}${correction.key}:h`);
        args.push(correction.tokens);
      }
      for (const release of plan.concurrencyReleases) keys.push(keyPrefix + release.key);
      const reply = (await call("gatewayBudgetSettle", [keys.length, ...keys, ...args])) as number[];
      const unseededCount = Number(reply[0]);
      const unseeded: number[] = [];
      for (let index = 1; index <= unseededCount; index++) unseeded.push(Number(reply[index]));
      const crossed: SettlementPlanOutcome["crossed"] = [];
      for (let index = unseededCount + 1; index + 2 < reply.length; index += 3) {
        crossed.push({ spendIndex: Number(reply[index]), thresholdIndex: Number(reply[index + 1]), spentMicros: Number(reply[index + 2]) });
      }
      return { crossed, unseeded };
    },
    async readBudgets(keys: readonly string[]): Promise<BudgetCounterState[]> {
      const now = clock();
      return readInChunks(
        "gatewayBudgetsRead",
        keys.length,
        (from, to) => {
          const args: (string | number)[] = [2 * (to - from)];
          for (let index = from; index < to; index++) args.push(keyPrefix + keys[index]!, `${keyPrefix}${keys[index]!}:z`);
          args.push(now);
          return args;
        },
        3,
        (reply, offset) => ({ spentMicros: Number(reply[offset]), reservedMicros: Number(reply[offset + 1]), seeded: Number(reply[offset + 2]) === 1 }),
      );
    },
    async seedBudget(step: SeedStep): Promise<SeedOutcome> {
      const args: (string | number)[] = [step.now, step.amountMicros, step.expiresAt ?? -1, step.thresholds.length];
      for (const threshold of step.thresholds) args.push(threshold.name, threshold.micros);
      const reply = (await call("gatewayBudgetSeed", [1, keyPrefix + step.key, ...args])) as number[];
      const crossed: SeedOutcome["crossed"] = [];
      for (let index = 1; index + 1 < reply.length; index += 2) crossed.push({ thresholdIndex: Number(reply[index]), spentMicros: Number(reply[index + 1]) });
      return { seeded: Number(reply[0]) === 1, crossed };
    },
    async seedTokenWindow(step: TokenWindowSeedStep): Promise<boolean> {
      const args: (string | number)[] = [step.now, step.windowMs, step.entries.length];
      for (const entry of step.entries) args.push(entry.id, entry.time, entry.tokens);
      const reply = await call("gatewayTokenWindowSeed", [2, keyPrefix + step.key, `${keyPrefix}${step.key}:h`, ...args]);
      return Number(reply) === 1;
    },
    async readRateLimits(steps: readonly RateLimitReadStep[]): Promise<RateLimitCounterState[]> {
      return readInChunks(
        "gatewayRateLimitsRead",
        steps.length,
        (from, to) => {
          const keys: (string | number)[] = [4 * (to - from)];
          const windows: number[] = [];
          for (let index = from; index < to; index++) {
            const step = steps[index]!;
            keys.push(keyPrefix + step.requestKey, keyPrefix + step.tokenKey, `${keyPrefix}${step.tokenKey}:h`, keyPrefix + step.concurrencyKey);
            windows.push(step.now, step.windowMs);
          }
          return [...keys, ...windows];
        },
        4,
        (reply, offset) => ({
          requests: Number(reply[offset]),
          tokens: Number(reply[offset + 1]),
          concurrent: Number(reply[offset + 2]),
          tokensSeeded: Number(reply[offset + 3]) === 1,
        }),
      );
    },
    async close() {},
  };
}
