import type { RecordedRequest } from "./fake-upstream.js";

/** What the fake OpenAI model "believes": a probability per option key of one question. */
export type Beliefs = Record<string, number>;

/** How the fake writes its top log-probabilities. */
export interface FakeLogprobOptions {
  /** Share of the first-token probability that goes to the labels (the rest to junk tokens). */
  labelMass?: number;
  /** Split each label over variants `X`, ` X`, `x` (20/50/30 for the first label, 60/30/10 for the others) when there are few labels. */
  variants?: boolean;
}

/** A label the fake found in the prompt, with the option keys it stands for. */
interface PromptLabel {
  label: string;
  keys: string[];
}

/** Reads the option key out of an option line's text (after `label: ` or `- `). */
function keyOfLine(label: string, text: string): string {
  const quoted = /^"((?:[^"\\]|\\.)*)"/.exec(text);
  if (quoted) return JSON.parse(`"${quoted[1]}"`) as string;
  const level = /^level (\d+)/.exec(text);
  if (level) return level[1]!;
  return label; // noul (`true`/`false`) and digit score labels are the keys themselves
}

/** Parses the labels of a label prompt or group prompt as the adapter writes them. */
export function parsePromptLabels(user: string): PromptLabel[] {
  const groups = /<groups>\n([\s\S]*?)\n<\/groups>/.exec(user);
  if (groups) {
    return groups[1]!.split("\n\n").map((block) => {
      const [head, ...lines] = block.split("\n");
      const label = /^Group ([A-Z]+):$/.exec(head!)![1]!;
      return { label, keys: lines.map((line) => keyOfLine("", line.slice(2))) };
    });
  }
  const options = /<options>\n([\s\S]*?)\n<\/options>/.exec(user);
  if (!options) throw new Error("no options in prompt");
  return options[1]!.split("\n").map((line) => {
    const match = /^([A-Za-z0-9]+): (.*)$/.exec(line)!;
    return { label: match[1]!, keys: [keyOfLine(match[1]!, match[2]!)] };
  });
}

/** The top log-probabilities the fake answers with for a prompt, given its beliefs. */
export function fakeTopLogprobs(user: string, beliefs: Beliefs, options: FakeLogprobOptions = {}) {
  const labels = parsePromptLabels(user);
  const labelMass = options.labelMass ?? 0.9;
  const masses = labels.map((entry) => ({ label: entry.label, mass: entry.keys.reduce((sum, key) => sum + (beliefs[key] ?? 0), 0) }));
  const total = masses.reduce((sum, entry) => sum + entry.mass, 0);
  const tokens: { token: string; probability: number }[] = [];
  for (const { label, mass } of masses) {
    if (mass === 0) continue;
    const probability = (labelMass * mass) / total;
    if (options.variants && labels.length <= 6) {
      // Shares differ between labels, so ignoring variants would give wrong probabilities.
      const [plain, spaced, otherCase] = label === labels[0]!.label ? [0.2, 0.5, 0.3] : [0.6, 0.3, 0.1];
      tokens.push({ token: label, probability: probability * plain! });
      tokens.push({ token: ` ${label}`, probability: probability * spaced! });
      tokens.push({ token: label === label.toLowerCase() ? label.toUpperCase() : label.toLowerCase(), probability: probability * otherCase! });
    } else {
      tokens.push({ token: label, probability });
    }
  }
  if (labelMass < 1) {
    tokens.push({ token: "The", probability: (1 - labelMass) * 0.7 });
    tokens.push({ token: "Sure", probability: (1 - labelMass) * 0.3 });
  }
  tokens.sort((a, b) => b.probability - a.probability);
  if (tokens.length > 20) throw new Error(`fake needs ${tokens.length} top tokens; OpenAI gives at most 20`);
  return tokens.map(({ token, probability }) => ({ token, logprob: Math.log(probability), bytes: [...Buffer.from(token)] }));
}

/** Usage the fake reports for every call. */
export const fakeCallUsage = { prompt_tokens: 100, completion_tokens: 1, total_tokens: 101, prompt_tokens_details: { cached_tokens: 40 } };

/** A complete OpenAI chat completion answering a label request with logprobs. */
export function fakeLogprobCompletion(request: RecordedRequest, beliefs: Beliefs, options: FakeLogprobOptions = {}) {
  const user = request.body.messages.find((message: { role: string }) => message.role === "user").content as string;
  const top = fakeTopLogprobs(user, beliefs, options);
  const first = top[0]!;
  return {
    id: "chatcmpl-decision",
    object: "chat.completion",
    created: 1_700_000_000,
    model: request.body.model,
    choices: [
      {
        index: 0,
        message: { role: "assistant", content: first.token, refusal: null as string | null, annotations: [] as unknown[] },
        logprobs: { content: [{ ...first, top_logprobs: top }], refusal: null },
        finish_reason: "length",
      },
    ],
    usage: fakeCallUsage,
    system_fingerprint: "fp_test",
  };
}

/** The user prompt of a recorded chat request. */
export function userPrompt(request: RecordedRequest): string {
  return request.body.messages.find((message: { role: string }) => message.role === "user").content as string;
}
