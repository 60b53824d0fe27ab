import { type Admission, type BudgetThresholdCrossing, countUsageTokens } from "@gateway/budget";
import type { NormalizedUsage } from "@gateway/contracts";
import type { CallTarget } from "./call-target.js";
import type { PipelineDependencies } from "../call/pipeline-dependencies.js";
import { settleCost } from "./settle-cost.js";

/** Input of {@link settleCall}. */
export interface SettleCallInput {
  dependencies: Pick<PipelineDependencies, "onBudgetThreshold">;
  admission: Admission | null;
  /** The target that consumed `usage` (null when no provider answered). */
  target: CallTarget | null;
  /** What the call consumed (partial usage of a failed or cancelled call is billed too). */
  usage: NormalizedUsage | null;
  /** The call's cost ({@link callCostMicros}). */
  costMicros: number;
}

/** The cost of a call in micro-USD (0 when nothing was consumed or the cost cannot be computed). Never throws. */
export function callCostMicros(target: CallTarget | null, usage: NormalizedUsage | null): number {
  try {
    return usage === null || target === null ? 0 : settleCost(target, usage);
  } catch {
    return 0;
  }
}

/**
 * The settle stage: converts the admission's reservation into the call's cost (or releases it
 * when nothing was consumed) and reports first threshold crossings.
 * Never throws (store failures are the admission controller's to report).
 */
export async function settleCall(input: SettleCallInput): Promise<{ thresholdCrossings: BudgetThresholdCrossing[] }> {
  const { costMicros } = input;
  try {
    if (input.admission === null) return { thresholdCrossings: [] };
    const result =
      input.usage === null
        ? await input.admission.release()
        : await input.admission.settle({ costMicros, tokens: countUsageTokens(input.usage) });
    for (const crossing of result.thresholdCrossings) input.dependencies.onBudgetThreshold?.(crossing);
    return { thresholdCrossings: result.thresholdCrossings };
  } catch {
    return { thresholdCrossings: [] };
  }
}
