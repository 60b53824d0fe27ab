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
}

/**
 * The settle stage: computes the call's cost, converts the admission's reservation into it
 * (or releases it when nothing was consumed) and reports first threshold crossings.
 * Never throws (store failures are the admission controller's to report).
 */
export async function settleCall(
  input: SettleCallInput,
): Promise<{ costMicros: number; thresholdCrossings: BudgetThresholdCrossing[] }> {
  let costMicros = 0;
  try {
    costMicros = input.usage === null || input.target === null ? 0 : settleCost(input.target, input.usage);
    if (input.admission === null) return { costMicros, thresholdCrossings: [] };
    const result =
      input.usage === null
        ? await input.admission.release()
        : await input.admission.settle({ costMicros, tokens: countUsageTokens(input.usage) });
    for (const crossing of result.thresholdCrossings) input.dependencies.onBudgetThreshold?.(crossing);
    return { costMicros, thresholdCrossings: result.thresholdCrossings };
  } catch {
    return { costMicros, thresholdCrossings: [] };
  }
}
