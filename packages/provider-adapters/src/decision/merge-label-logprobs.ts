/** One candidate token with its log-probability, as OpenAI's `top_logprobs` lists them. */
export interface TokenLogprob {
  token: string;
  logprob: number;
}

/**
 * Sums the probabilities of the token variants of each allowed label: a token counts for a
 * label when, with surrounding whitespace removed, it equals the label ignoring case
 * (`"A"`, `" A"`, `"a"`, `"\nA"` all count for `A`; `"True"` for `true`). Each distinct token is
 * counted once. Returns a weight per label (0 for labels never seen); not renormalised.
 */
export function mergeLabelLogprobs(candidates: readonly TokenLogprob[], labels: readonly string[]): Record<string, number> {
  const byFolded = new Map<string, string>();
  for (const label of labels) byFolded.set(label.toLowerCase(), label);
  const weights: Record<string, number> = {};
  for (const label of labels) weights[label] = 0;
  const seen = new Set<string>();
  for (const candidate of candidates) {
    if (seen.has(candidate.token) || typeof candidate.logprob !== "number" || Number.isNaN(candidate.logprob)) continue;
    seen.add(candidate.token);
    const label = byFolded.get(candidate.token.trim().toLowerCase());
    if (label === undefined) continue;
    weights[label] = (weights[label] ?? 0) + Math.exp(candidate.logprob);
  }
  return weights;
}
