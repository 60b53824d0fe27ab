export { decisionLimits } from "./decision-limits.js";
export type { DecisionLimits } from "./decision-limits.js";
export { decisionContentSchema, criterionValueSchema } from "./decision-content-schema.js";
export type { DecisionContent, CriterionValue } from "./decision-content-schema.js";
export { parseRubricKey } from "./parse-rubric-key.js";
export {
  noulQuestionSchema,
  choiceQuestionSchema,
  scoreQuestionSchema,
  decisionQuestionSchema,
} from "./decision-question-schema.js";
export type {
  NoulQuestion,
  ChoiceQuestion,
  ScoreQuestion,
  DecisionQuestion,
  DecisionQuestionKind,
  ScoreCriteria,
} from "./decision-question-schema.js";
export { decisionRequestSchema } from "./decision-request-schema.js";
export type { DecisionRequest } from "./decision-request-schema.js";
export { parseDecisionRequest, safeParseDecisionRequest } from "./parse-decision-request.js";
export type { SafeParseDecisionRequestResult } from "./parse-decision-request.js";
export {
  noulAnswerSchema,
  choiceAnswerSchema,
  scoreAnswerSchema,
  refusalAnswerSchema,
  decisionAnswerSchema,
} from "./decision-answer-schema.js";
export type { NoulAnswer, ChoiceAnswer, ScoreAnswer, RefusalAnswer, DecisionAnswer } from "./decision-answer-schema.js";
export { decisionResponseSchema, decisionUsageSchema } from "./decision-response-schema.js";
export type { DecisionResponse, DecisionUsage } from "./decision-response-schema.js";
export { describeScoreScale } from "./describe-score-scale.js";
export type { ScoreScale } from "./describe-score-scale.js";
export { checkDecisionResponse } from "./check-decision-response.js";
export type { DecisionResponseIssue, DecisionResponseProblem } from "./check-decision-response.js";
export { normalizeDistribution, normalizeWeights } from "./normalize-distribution.js";
export { choiceConfidence } from "./choice-confidence.js";
export { scoreExpectedValue } from "./score-expected-value.js";
export { scoreConfidence, uniformMeanAbsoluteDeviation } from "./score-confidence.js";
export { buildScoreLegend } from "./build-score-legend.js";
export { buildChoiceAnswer } from "./build-choice-answer.js";
export type { BuildChoiceAnswerOptions } from "./build-choice-answer.js";
export { buildScoreAnswer } from "./build-score-answer.js";
export type { BuildScoreAnswerOptions } from "./build-score-answer.js";
export { buildNoulAnswer } from "./build-noul-answer.js";
export type { BuildNoulAnswerOptions } from "./build-noul-answer.js";
export { decisionRequestJsonSchema, decisionResponseJsonSchema } from "./decision-json-schema.js";
