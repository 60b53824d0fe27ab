-- Hand-written (activity filters): partial indexes for the rare outcomes the activity list filters
-- on. A guardrail flag, a budget outcome or a rate-limit outcome marks about 1% of calls, so
-- walking the newest calls for a page of them reads ~100 calls per match; these indexes hold only
-- the marked calls (a call without the mark costs the writer one predicate test, no index entry).
CREATE INDEX "usage_events_guardrail_flagged_idx" ON "usage_events"("organization_id", "occurred_at") WHERE "guardrail_flagged";
CREATE INDEX "usage_events_budget_outcome_idx" ON "usage_events"("organization_id", "budget_outcome", "occurred_at") WHERE "budget_outcome" IS NOT NULL;
CREATE INDEX "usage_events_rate_limit_outcome_idx" ON "usage_events"("organization_id", "rate_limit_outcome", "occurred_at") WHERE "rate_limit_outcome" IS NOT NULL;
