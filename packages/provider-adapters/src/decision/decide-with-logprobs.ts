import { GatewayError } from "@gateway/errors";
import { addUsage } from "../provider-adapter.js";
import type { NormalizedUsage } from "@gateway/contracts";
import type { ProviderCallContext } from "../provider-adapter.js";
import { buildDecisionAnswer } from "./build-decision-answer.js";
import type { DecisionAnswer, DecisionQuestion } from "./decision-contract.js";
import type { AskOutcome, DecisionAsker } from "./decision-asker.js";
import { decisionOptions } from "./decision-options.js";
import { groupPrompt, labelPrompt, letterLabel } from "./decision-prompt.js";
import type { LabelledOption } from "./decision-prompt.js";

/** OpenAI caps `top_logprobs` at 20: at most this many labels per call. */
export const maxLabelsPerCall = 20;

/**
 * Groups below this cumulative probability are not explored: the explored groups are the most
 * likely ones, in descending order, until their probabilities sum to at least this value.
 */
export const groupCoverage = 0.99;

type LabelAsker = Extract<DecisionAsker, { source: "logprobs" }>;

/**
 * Answers one question from log-probabilities of a single label token.
 *
 * Labels: `true`/`false` for noul; level indices `0`..`9` for scores of at most 10 levels;
 * letters `A`..`T` for choices and for scores of more than 10 levels (multi-digit numbers
 * are several tokens for many tokenizers). Up to 20 options: one call. More: the options are
 * split in request order into `ceil(n / 20)` groups of near-equal size (at most 20 each); one
 * call asks which group (labels `A`..), then one call per explored group asks within it
 * (all in parallel), and P(option) = P(group) × P(option | group). The explored groups are the
 * most likely ones until they cover {@link groupCoverage} of the group probability; each
 * unexplored group's probability is spread evenly over its options (so the distribution
 * still sums to 1 and reflects what was measured). A refusal at any step makes the answer a
 * refusal.
 */
export async function decideWithLogprobs(options: {
  question: DecisionQuestion;
  state: unknown;
  asker: LabelAsker;
  context: ProviderCallContext;
  provider: string;
}): Promise<{ answer: DecisionAnswer; usage: NormalizedUsage }> {
  const { question, state, asker, context, provider } = options;
  const all = decisionOptions(question);
  const labelOf = (index: number): string => {
    if (question.type === "noul") return all[index]!.key;
    if (question.type === "score" && all.length <= 10) return String(index);
    return letterLabel(index);
  };
  const extra = { probability_source: "logprobs" };

  async function askAmong(entries: readonly LabelledOption[]): Promise<AskOutcome> {
    const labels = entries.map((entry) => entry.label);
    const outcome = await asker.askLabel(labelPrompt(state, question, entries), labels, context);
    if (outcome.kind === "weights") ensureMass(outcome.weights, provider);
    return outcome;
  }

  if (all.length <= maxLabelsPerCall) {
    const entries = all.map((option, index) => ({ label: labelOf(index), option }));
    const outcome = await askAmong(entries);
    if (outcome.kind === "refusal") return { answer: { type: "refusal" }, usage: outcome.usage };
    // Keyed by option (a choice may be named `__proto__`): own keys, never assignment.
    const weights = Object.fromEntries(entries.map((entry) => [entry.option.key, outcome.weights[entry.label] ?? 0]));
    return { answer: buildDecisionAnswer(question, weights, extra), usage: outcome.usage };
  }

  const groupCount = Math.ceil(all.length / maxLabelsPerCall);
  const groups = splitEvenly(all, groupCount).map((members, groupIndex) => ({
    label: letterLabel(groupIndex),
    options: members.map((option, index) => ({ label: letterLabel(index), option })),
  }));
  const groupOutcome = await asker.askLabel(
    groupPrompt(state, question, groups),
    groups.map((group) => group.label),
    context,
  );
  if (groupOutcome.kind === "refusal") return { answer: { type: "refusal" }, usage: groupOutcome.usage };
  ensureMass(groupOutcome.weights, provider);
  const groupTotal = groups.reduce((sum, group) => sum + (groupOutcome.weights[group.label] ?? 0), 0);
  const groupProbability = groups.map((group) => (groupOutcome.weights[group.label] ?? 0) / groupTotal);

  const explored = exploredGroups(groupProbability, groupCoverage);
  const outcomes = await Promise.all(
    groups.map((group, index) => (explored.has(index) && group.options.length > 1 ? askAmong(group.options) : undefined)),
  );
  let usage = groupOutcome.usage;
  for (const outcome of outcomes) if (outcome !== undefined) usage = addUsage(usage, outcome.usage);
  if (outcomes.some((outcome) => outcome?.kind === "refusal")) return { answer: { type: "refusal" }, usage };

  const weights = Object.fromEntries(
    groups.flatMap((group, index) => {
      const probability = groupProbability[index]!;
      const outcome = outcomes[index];
      if (outcome === undefined || outcome.kind !== "weights") {
        // Unexplored (or a single option): the group's probability spread evenly.
        return group.options.map((entry) => [entry.option.key, probability / group.options.length] as const);
      }
      const withinTotal = group.options.reduce((sum, entry) => sum + (outcome.weights[entry.label] ?? 0), 0);
      return group.options.map((entry) => [entry.option.key, probability * ((outcome.weights[entry.label] ?? 0) / withinTotal)] as const);
    }),
  );
  return { answer: buildDecisionAnswer(question, weights, extra), usage };
}

/** Indices of the most probable groups whose probabilities first sum to at least `coverage`. */
export function exploredGroups(probabilities: readonly number[], coverage: number): Set<number> {
  const order = probabilities.map((probability, index) => ({ probability, index })).sort((a, b) => b.probability - a.probability);
  const chosen = new Set<number>();
  let covered = 0;
  for (const { probability, index } of order) {
    if (covered >= coverage || probability === 0) break;
    chosen.add(index);
    covered += probability;
  }
  return chosen;
}

/** Splits items in order into `count` consecutive groups whose sizes differ by at most one. */
export function splitEvenly<Item>(items: readonly Item[], count: number): Item[][] {
  const groups: Item[][] = [];
  const base = Math.floor(items.length / count);
  const larger = items.length % count;
  let start = 0;
  for (let index = 0; index < count; index++) {
    const size = base + (index < larger ? 1 : 0);
    groups.push(items.slice(start, start + size));
    start += size;
  }
  return groups;
}

function ensureMass(weights: Record<string, number>, provider: string): void {
  const total = Object.values(weights).reduce((sum, weight) => sum + weight, 0);
  if (!(total > 0)) {
    throw new GatewayError("upstream_error", {
      message: `The provider '${provider}' answered with none of the allowed labels among its most likely tokens.`,
      retryable: true, details: { provider },
    });
  }
}
