import { type AttemptLimiter, createAttemptLimiter } from "./attempt-limiter.js";

/** Settings of {@link createLoginThrottle} (defaults in parentheses). */
export interface LoginThrottleSettings {
  /** Failed logins on one account from one client address in the window before it answers 429 (5). */
  accountAddressFailures?: number;
  /** Failed logins from one client address, all accounts together, in the window before it answers 429 (20). */
  addressFailures?: number;
  /** Failed logins on one account, from any address, in the window after which its logins are slowed down (5). */
  accountSlowdownAfter?: number;
  /** The first slow-down delay in ms; it doubles with each further failure (250). */
  accountDelayMs?: number;
  /** The longest slow-down delay in ms (8000). */
  accountMaxDelayMs?: number;
  /** The window failures are counted in, in ms (15 minutes). */
  windowMs?: number;
  /** The clock (injected in tests). */
  now?: () => number;
}

/**
 * Login throttling that an attacker cannot turn against the account's owner. Failures are
 * counted per (account, client address) and per client address: either at its limit answers 429.
 * Failures on an account from all addresses together never lock it: they slow each further
 * attempt on it down (a delay doubling per failure, capped), so the right password from an
 * address that has not failed still logs in, while guessing from many addresses is slowed.
 * A successful login clears that slow-down for the address it came from: only failures after it
 * slow that address's next logins on the account down again.
 * The account key is the normalized email, known or not (no account enumeration through throttling).
 */
export interface LoginThrottle {
  /** Seconds the address must wait before trying this account again (429); 0 when it may try now. */
  retryAfterSeconds(account: string, address: string): number;
  /**
   * How long to hold an attempt on the account from this address before its password is checked
   * (0: none): counted from the account's failures since the address last logged in to it.
   */
  delayMs(account: string, address: string): number;
  /** Records a failed attempt. */
  failed(account: string, address: string): void;
  /**
   * Records a successful login: the address's failures on this account are forgotten, and the
   * account's slow-down no longer applies to this address (until further failures).
   */
  succeeded(account: string, address: string): void;
}

/** Creates a {@link LoginThrottle} (in process memory: each dashboard instance counts on its own). */
export function createLoginThrottle(settings: LoginThrottleSettings = {}): LoginThrottle {
  const windowMs = settings.windowMs ?? 15 * 60_000;
  const clock = settings.now === undefined ? {} : { now: settings.now };
  const pairs: AttemptLimiter = createAttemptLimiter({ limit: settings.accountAddressFailures ?? 5, windowMs, ...clock });
  const addresses: AttemptLimiter = createAttemptLimiter({ limit: settings.addressFailures ?? 20, windowMs, ...clock });
  // The limit is never reached (only counts are read): accounts are slowed down, not locked.
  const accounts: AttemptLimiter = createAttemptLimiter({ limit: Number.MAX_SAFE_INTEGER, windowMs, ...clock });
  // When each (account, address) last logged in; kept as long as the failures it discounts.
  const logins: AttemptLimiter = createAttemptLimiter({ limit: Number.MAX_SAFE_INTEGER, windowMs, ...clock });
  const slowdownAfter = settings.accountSlowdownAfter ?? 5;
  const baseDelayMs = settings.accountDelayMs ?? 250;
  const maxDelayMs = settings.accountMaxDelayMs ?? 8000;
  const pairKey = (account: string, address: string) => `${account}\n${address}`;

  return {
    retryAfterSeconds(account, address) {
      return Math.max(pairs.retryAfterSeconds(pairKey(account, address)), addresses.retryAfterSeconds(address));
    },
    delayMs(account, address) {
      const loggedInAt = logins.lastHit(pairKey(account, address));
      const beyond = accounts.count(account, loggedInAt ?? undefined) - slowdownAfter;
      if (beyond < 0) return 0;
      return Math.min(maxDelayMs, baseDelayMs * 2 ** Math.min(beyond, 30));
    },
    failed(account, address) {
      pairs.hit(pairKey(account, address));
      addresses.hit(address);
      accounts.hit(account);
    },
    succeeded(account, address) {
      pairs.reset(pairKey(account, address));
      logins.reset(pairKey(account, address));
      logins.hit(pairKey(account, address));
    },
  };
}
