/** The decision contract types this package uses, from `@gateway/decision-schema`. */
export type { DecisionAnswer, DecisionQuestion, DecisionRequest, DecisionResponse } from "@gateway/decision-schema";
