import { recordedSpendBudget, type RecordedSpendBudget, type RecordedSpendBudgetRule, type RecordedSpendWindow } from "@gateway/db";

/** Sums the recorded spend of several budgets of one organization in one query (`sumRecordedBudgetSpend`). */
export type SumRecordedSpend = (organizationId: string, budgets: readonly RecordedSpendBudget[]) => Promise<Map<string, number>>;

interface PendingQuestion {
  organizationId: string;
  question: RecordedSpendBudget;
  resolve: (spentMicros: number) => void;
  reject: (error: unknown) => void;
}

/**
 * A `loadRecordedSpend` for the admission controller that answers the questions asked in the
 * same turn of the event loop with one grouped query per organization. The status page reads
 * every budget's counter at once; when the counters are missing (a new period, expired keys)
 * each would be rebuilt with its own query: 1,000 budgets, 1,000 queries. Batched, it is one.
 * The figures are those of the per-budget question (same `recordedSpendBudget`, same sum).
 */
export function batchRecordedSpend(sum: SumRecordedSpend): (budget: RecordedSpendBudgetRule, window: RecordedSpendWindow) => Promise<number> {
  let pending: PendingQuestion[] = [];

  async function answer(batch: PendingQuestion[]): Promise<void> {
    // One query per organization; a budget asked twice (two windows) goes into a later query.
    const groups: PendingQuestion[][] = [];
    for (const entry of batch) {
      let group = groups.find((candidate) => candidate[0]!.organizationId === entry.organizationId && !candidate.some((other) => other.question.id === entry.question.id));
      if (group === undefined) groups.push((group = []));
      group.push(entry);
    }
    await Promise.all(
      groups.map(async (group) => {
        try {
          const totals = await sum(group[0]!.organizationId, group.map((entry) => entry.question));
          for (const entry of group) entry.resolve(totals.get(entry.question.id) ?? 0);
        } catch (error) {
          for (const entry of group) entry.reject(error);
        }
      }),
    );
  }

  return (budget, window) => {
    if (budget.organizationId === undefined) return Promise.reject(new Error(`Budget ${budget.id} has no organization.`));
    const organizationId = budget.organizationId;
    return new Promise<number>((resolve, reject) => {
      if (pending.length === 0) {
        setImmediate(() => {
          const batch = pending;
          pending = [];
          void answer(batch);
        });
      }
      pending.push({ organizationId, question: recordedSpendBudget(budget, window), resolve, reject });
    });
  };
}
