import { useSyncExternalStore } from "react";

let expired = false;
const listeners = new Set<() => void>();

function notify(): void {
  for (const listener of listeners) listener();
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

function currentExpiry(): boolean {
  return expired;
}

/**
 * Records that the API refused the signed-in session (expired, revoked, signed out elsewhere)
 * while a screen is open. The screen stays as it is, with what was typed into it; the layout asks
 * to sign in again on top of it.
 */
export function markSessionExpired(): void {
  if (expired) return;
  expired = true;
  notify();
}

/** Forgets the expiry (signed in again, or the person closed the question). */
export function clearSessionExpired(): void {
  if (!expired) return;
  expired = false;
  notify();
}

/** Whether the signed-in session was found expired (re-renders when that changes). */
export function useSessionExpired(): boolean {
  return useSyncExternalStore(subscribe, currentExpiry);
}
