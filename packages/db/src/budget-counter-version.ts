/**
 * The counter generation of a budget (`BudgetRule.counterVersion`): its `updated_at` in epoch
 * milliseconds. Every change of the row (amount, period, scope, reset) bumps it, so gateways
 * and the dashboard move to a fresh counter that is seeded from recorded usage. The gateway's
 * snapshot and the dashboard derive it from the same column, so they name the same counter.
 */
export function budgetCounterVersion(updatedAt: Date): string {
  return String(updatedAt.getTime());
}
