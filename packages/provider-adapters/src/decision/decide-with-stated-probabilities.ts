import type { NormalizedUsage } from "@gateway/contracts";
import type { ProviderCallContext } from "../provider-adapter.js";
import { buildDecisionAnswer } from "./build-decision-answer.js";
import type { DecisionAnswer, DecisionQuestion } from "./decision-contract.js";
import type { DecisionAsker } from "./decision-asker.js";
import { decisionOptions } from "./decision-options.js";
import { letterLabel, renderContent, statedPrompt } from "./decision-prompt.js";

type StatedAsker = Extract<DecisionAsker, { source: "stated" }>;

const maxFieldDescription = 200;

/**
 * Answers one question with one call asking for a stated probability per option (fields
 * `true`/`false` for noul, `0`..`n-1` for score levels, `A`, `B`, … `IU` for choices),
 * renormalised. The answer carries `probability_source: "stated"`: the probabilities are the
 * model's statement, not a measurement.
 */
export async function decideWithStatedProbabilities(options: {
  question: DecisionQuestion;
  state: unknown;
  asker: StatedAsker;
  context: ProviderCallContext;
}): Promise<{ answer: DecisionAnswer; usage: NormalizedUsage }> {
  const { question, state, asker, context } = options;
  const entries = decisionOptions(question).map((option, index) => ({
    label: question.type === "choice" ? letterLabel(index) : option.key,
    option,
  }));
  const fields = entries.map((entry) => ({
    label: entry.label,
    description: describe(question, entry.option.key, entry.option.description),
  }));
  const outcome = await asker.askProbabilities(statedPrompt(state, question, entries), fields, context);
  if (outcome.kind === "refusal") return { answer: { type: "refusal" }, usage: outcome.usage };
  // Keyed by option (a choice may be named `__proto__`): own keys, never assignment.
  const weights = Object.fromEntries(entries.map((entry) => [entry.option.key, outcome.weights[entry.label] ?? 0]));
  return { answer: buildDecisionAnswer(question, weights, { probability_source: "stated" }), usage: outcome.usage };
}

function describe(question: DecisionQuestion, key: string, description: unknown): string {
  const head = question.type === "choice" ? `Probability of ${JSON.stringify(key)}` : question.type === "score" ? `Probability of level ${key}` : `Probability of ${key}`;
  const text = description === null ? "" : `: ${renderContent(description)}`;
  const full = `${head}${text}`;
  return full.length > maxFieldDescription ? `${full.slice(0, maxFieldDescription)}…` : full;
}
