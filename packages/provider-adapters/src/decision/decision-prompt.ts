import type { DecisionQuestion } from "./decision-contract.js";
import type { DecisionOption } from "./decision-options.js";

/** An option shown to the model under a label. */
export interface LabelledOption {
  label: string;
  option: DecisionOption;
}

/** A chat prompt: system text and user text. */
export interface DecisionPrompt {
  system: string;
  user: string;
}

/** `A`, `B`, …, `Z`, `AA`, `AB`, … (spreadsheet column names): labels valid as JSON-schema property names. */
export function letterLabel(index: number): string {
  let label = "";
  let rest = index;
  do {
    label = String.fromCharCode(65 + (rest % 26)) + label;
    rest = Math.floor(rest / 26) - 1;
  } while (rest >= 0);
  return label;
}

/** Text of a content value: strings as they are, anything else as indented JSON. */
export function renderContent(value: unknown): string {
  if (typeof value === "string") return value;
  return JSON.stringify(value, null, 2) ?? "null";
}

const labelSystem =
  "You are an evaluator. You read a state and a question, then answer with exactly one of the allowed labels. " +
  "Reply with the label only: no reasoning, no explanation, no punctuation, no other text.";

const statedSystem =
  "You are an evaluator. You read a state and a question, then state, for every option, the probability (a number from 0 to 1) " +
  "that it is the right answer; the probabilities sum to 1. Give only the probabilities: no reasoning, no explanation.";

function optionLine(question: DecisionQuestion, labelled: LabelledOption): string {
  const { label, option } = labelled;
  const description = option.description === null ? "" : renderContent(option.description);
  if (question.type === "noul") {
    return `${label}: ${description === "" ? (option.key === "true" ? "yes" : "no") : description}`;
  }
  if (question.type === "score") {
    // Digit labels are the level indices themselves; letter labels name the level they stand for.
    const head = label === option.key ? "" : `level ${option.key}`;
    const separator = head !== "" && description !== "" ? " — " : "";
    return `${label}: ${head}${separator}${description === "" && head === "" ? `level ${option.key}` : description}`;
  }
  return `${label}: ${JSON.stringify(option.key)}${description === "" ? "" : ` — ${description}`}`;
}

function optionsHeading(question: DecisionQuestion): string {
  if (question.type === "noul") return "Answer `true` if the statement or question holds for the state, `false` otherwise.";
  if (question.type === "score") return "The levels are ordered from the lowest score (level 0) to the highest.";
  return "The options:";
}

function groupsHeading(question: DecisionQuestion): string {
  if (question.type === "score") return `${optionsHeading(question)} The levels are split into groups of consecutive levels.`;
  return "The options are split into groups.";
}

function stateAndQuestion(state: unknown, question: DecisionQuestion): string {
  return `<state>\n${renderContent(state)}\n</state>\n\n<question>\n${renderContent(question.instructions)}\n</question>`;
}

/** Prompt asking for one label among `options` (single-token answer, read through logprobs). */
export function labelPrompt(state: unknown, question: DecisionQuestion, options: readonly LabelledOption[]): DecisionPrompt {
  const labels = options.map((entry) => entry.label);
  const lines = options.map((entry) => optionLine(question, entry));
  return {
    system: labelSystem,
    user:
      `${stateAndQuestion(state, question)}\n\n${optionsHeading(question)}\n<options>\n${lines.join("\n")}\n</options>\n\n` +
      `Reply with exactly one label: ${labels.join(", ")}.`,
  };
}

/** Prompt asking which group holds the right option (options shown grouped). */
export function groupPrompt(
  state: unknown,
  question: DecisionQuestion,
  groups: readonly { label: string; options: readonly LabelledOption[] }[],
): DecisionPrompt {
  const blocks = groups.map(
    (group) => `Group ${group.label}:\n${group.options.map((entry) => `- ${optionLine(question, entry).replace(/^[^:]+: /, "")}`).join("\n")}`,
  );
  const labels = groups.map((group) => group.label);
  return {
    system: labelSystem,
    user:
      `${stateAndQuestion(state, question)}\n\n${groupsHeading(question)}\n<groups>\n${blocks.join("\n\n")}\n</groups>\n\n` +
      `Which group contains the right answer? Reply with exactly one group label: ${labels.join(", ")}.`,
  };
}

/** Prompt asking for a stated probability per option (structured output / forced tool call). */
export function statedPrompt(state: unknown, question: DecisionQuestion, options: readonly LabelledOption[]): DecisionPrompt {
  const lines = options.map((entry) => optionLine(question, entry));
  return {
    system: statedSystem,
    user:
      `${stateAndQuestion(state, question)}\n\n${optionsHeading(question)}\n<options>\n${lines.join("\n")}\n</options>\n\n` +
      `Give the probability of each option, under its label (${options.map((entry) => entry.label).join(", ")}).`,
  };
}
