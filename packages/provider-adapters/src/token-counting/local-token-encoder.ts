import { Tiktoken } from "js-tiktoken/lite";

/** The tokenizers `countTokensLocally` can use. */
export type LocalTokenizer = "o200k_base" | "cl100k_base";

/** Counts of {@link countTextTokens}: one per text, and whether every one is the tokenizer's own. */
export interface TextTokenCounts {
  counts: number[];
  /** False when a part was estimated from its length (see {@link countTextTokens}). */
  exact: boolean;
}

// js-tiktoken's byte-pair merge is quadratic (or worse) in the length of one pre-token: 8,000
// letters without a space take 8 s, 4,000 spaces 3 s. Real text has short pre-tokens, so runs of
// non-space or space characters longer than this are estimated from their length instead.
const longRun = /\S{25,}|\s{25,}/g;
// Texts are encoded in pieces of about this many characters, cut before a whitespace character
// (where pre-tokens begin), so the time budget is checked between pieces.
const pieceLength = 16_384;
// Encoding time per call; what is left when it is spent is estimated from its length.
const encodeBudgetMs = 250;
// Length estimates: about 4 characters a token for text, 16 for whitespace.
const estimateTokens = (run: string) => Math.ceil(run.length / (/^\s/.test(run) ? 16 : 4));

const encoders = new Map<LocalTokenizer, Promise<Tiktoken>>();

/**
 * The encoder of a tokenizer, loaded on first use and cached. Building one decodes its ranks
 * (about a second of CPU for o200k_base, in one synchronous call): it runs in the token-counting
 * thread, never on a server's request thread.
 */
function loadEncoder(tokenizer: LocalTokenizer): Promise<Tiktoken> {
  let encoder = encoders.get(tokenizer);
  if (encoder === undefined) {
    const ranks = tokenizer === "o200k_base" ? import("js-tiktoken/ranks/o200k_base") : import("js-tiktoken/ranks/cl100k_base");
    encoder = ranks.then((module) => new Tiktoken(module.default));
    encoder.catch(() => encoders.delete(tokenizer));
    encoders.set(tokenizer, encoder);
  }
  return encoder;
}

/**
 * The number of tokens of each text (special tokens counted as text), in order, with the
 * tokenizer's own encoding, in bounded time: runs of more than 24 non-space (or space)
 * characters, and whatever remains once 250 ms of encoding are spent, are estimated from their
 * length (and `exact` is false).
 */
export async function countTextTokens(tokenizer: LocalTokenizer, texts: readonly string[]): Promise<TextTokenCounts> {
  const encoder = await loadEncoder(tokenizer);
  const started = performance.now();
  let exact = true;
  const counts = texts.map((text) => {
    let tokens = 0;
    const shortRuns = text.replace(longRun, (run) => {
      tokens += estimateTokens(run);
      exact = false;
      return " ";
    });
    for (let start = 0; start < shortRuns.length; ) {
      let end = Math.min(shortRuns.length, start + pieceLength);
      if (end < shortRuns.length) {
        const cut = shortRuns.slice(start, end).search(/\s\S*$/);
        if (cut > 0) end = start + cut;
      }
      const piece = shortRuns.slice(start, end);
      if (performance.now() - started > encodeBudgetMs) {
        tokens += estimateTokens(piece);
        exact = false;
      } else {
        tokens += encoder.encode(piece, [], []).length;
      }
      start = end;
    }
    return tokens;
  });
  return { counts, exact };
}
