import type { ImageSize } from "./read-image-size.js";

/** Input of {@link imageTokenBound}. */
export interface ImageTokenBoundInput {
  /** The model id as priced (`<vendor>/<model>` or the bare model name). */
  model: string;
  /** The connection kind serving the model: picks the rules when the model name is not recognised. */
  provider: string;
  /** The image's size when the request carries its header (a base64 image); null when unknown (a URL, a file id). */
  size: ImageSize | null;
  /** OpenAI's `detail` (`low`, `high`, `auto`); null when not given. */
  detail: string | null;
}

/**
 * OpenAI's tile rule ("Calculating costs" in OpenAI's images and vision guide): `detail: "low"`
 * costs the base tokens; otherwise the image is scaled down to fit 2048 x 2048, then down so its
 * shortest side is at most 768 px, and each 512 px tile costs the tile tokens, plus the base. The
 * largest image is 2048 x 768: 8 tiles. GPT-4o, GPT-4.1, GPT-4.5 and GPT-4 Turbo: 85 + 170 a
 * tile; GPT-5 (70 + 140) and o1 / o3 (75 + 150) cost less, so 85 + 170 bounds them too;
 * GPT-4o mini: 2833 + 5667 a tile (its low token price compensates).
 */
interface TileRule {
  kind: "tiles";
  baseTokens: number;
  tileTokens: number;
}

/**
 * OpenAI's patch rule (GPT-4.1 mini / nano, o4-mini, GPT-5 mini / nano): 32 x 32 px patches,
 * at most 1536 (larger images are scaled down to fit), times the model's multiplier; `detail`
 * does not apply.
 */
interface PatchRule {
  kind: "patches";
  multiplier: number;
}

/**
 * Anthropic's rule (Claude's vision guide): about width x height / 750 tokens, or one token per
 * 28 x 28 px patch with the image padded to a multiple of 28 px (newer models); images beyond the
 * model's native resolution are scaled down first, which caps the tokens of one image: about
 * 1,600 up to Claude 4.6 (long edge 1568 px, ~1.15 megapixels; 784 x 1568 / 750 = 1,639), about
 * 5,000 from Claude Opus 4.7 (long edge 2576 px, ~3.75 megapixels).
 */
interface PixelRule {
  kind: "pixels";
  maxTokens: number;
}

type ImageRule = TileRule | PatchRule | PixelRule;

const openAiTiles: TileRule = { kind: "tiles", baseTokens: 85, tileTokens: 170 };
const openAiMiniTiles: TileRule = { kind: "tiles", baseTokens: 2833, tileTokens: 5667 };
const maxPatches = 1536;
/** The largest patch multiplier OpenAI documents (GPT-4.1 nano, GPT-5 nano). */
const largestPatchMultiplier = 2.46;
/** Claude 3 and Claude 4 up to 4.6, with a margin over 1,639. */
const claudeLegacyPixels: PixelRule = { kind: "pixels", maxTokens: 1750 };
/** Claude Opus 4.7 and later, and any Claude model not known to be older, with a margin over 5,000. */
const claudePixels: PixelRule = { kind: "pixels", maxTokens: 5100 };

/** Model-name rules, first match wins; matched against the model name without its `<vendor>/`. */
const namedRules: ReadonlyArray<readonly [RegExp, ImageRule]> = [
  [/^gpt-4o-mini(?:-|$)/, openAiMiniTiles],
  [/^gpt-4\.1-mini(?:-|$)/, { kind: "patches", multiplier: 1.62 }],
  [/^gpt-4\.1-nano(?:-|$)/, { kind: "patches", multiplier: 2.46 }],
  [/^o4-mini(?:-|$)/, { kind: "patches", multiplier: 1.72 }],
  [/^gpt-5-mini(?:-|$)/, { kind: "patches", multiplier: 1.62 }],
  [/^gpt-5-nano(?:-|$)/, { kind: "patches", multiplier: 2.46 }],
  [/^(?:gpt-4o|chatgpt-4o|gpt-4\.1|gpt-4\.5|gpt-4-turbo|gpt-4-vision|gpt-5|o1|o3)(?:-\d{4}-\d{2}-\d{2}|-preview|-latest)?$/, openAiTiles],
  [/^claude-3(?:-|$)|^claude-(?:opus|sonnet|haiku)-4-(?:[0-6](?:-|$)|\d{8}$)/, claudeLegacyPixels],
  [/^claude-/, claudePixels],
];

/**
 * An upper bound of the input tokens one image costs on a model, by its provider's published
 * rule (see the rules above). An image of unknown size counts at the model's maximum; a model the
 * rules do not recognise counts the largest of the rules that could apply (Anthropic's rule on an
 * `anthropic` connection; on any other, the largest of OpenAI's tile rule, the largest patch
 * multiplier and Claude's newest rule, since OpenAI-compatible servers front either). Always an
 * integer >= 1.
 *
 * @example imageTokenBound({ model: "openai/gpt-4o", provider: "openai", size: { width: 1024, height: 1024 }, detail: "high" }) // 765
 */
export function imageTokenBound(input: ImageTokenBoundInput): number {
  const slash = input.model.indexOf("/");
  const name = (slash === -1 ? input.model : input.model.slice(slash + 1)).toLowerCase();
  for (const [pattern, rule] of namedRules) {
    if (pattern.test(name)) return ruleTokens(rule, input.size, input.detail);
  }
  if (input.provider === "anthropic") return ruleTokens(claudePixels, input.size, input.detail);
  return Math.max(
    ruleTokens(openAiTiles, input.size, input.detail),
    ruleTokens({ kind: "patches", multiplier: largestPatchMultiplier }, input.size, input.detail),
    ruleTokens(claudePixels, input.size, input.detail),
  );
}

function ruleTokens(rule: ImageRule, size: ImageSize | null, detail: string | null): number {
  switch (rule.kind) {
    case "tiles": {
      if (detail === "low") return rule.baseTokens;
      return rule.baseTokens + rule.tileTokens * (size === null ? 8 : tileCount(size));
    }
    case "patches": {
      const patches = size === null ? maxPatches : Math.min(maxPatches, Math.ceil(size.width / 32) * Math.ceil(size.height / 32));
      return Math.ceil(patches * rule.multiplier);
    }
    case "pixels": {
      if (size === null) return rule.maxTokens;
      const byArea = Math.ceil((size.width * size.height) / 750);
      const byPatches = Math.ceil(size.width / 28) * Math.ceil(size.height / 28);
      return Math.max(1, Math.min(rule.maxTokens, Math.max(byArea, byPatches)));
    }
  }
}

/** OpenAI's 512 px tiles of an image after scaling down to fit 2048 x 2048, then to a shortest side of at most 768 px. */
function tileCount(size: ImageSize): number {
  let width = size.width;
  let height = size.height;
  const fit = Math.min(1, 2048 / Math.max(width, height));
  width *= fit;
  height *= fit;
  const shortest = Math.min(width, height);
  if (shortest > 768) {
    width *= 768 / shortest;
    height *= 768 / shortest;
  }
  return Math.min(8, Math.max(1, Math.ceil(width / 512)) * Math.max(1, Math.ceil(height / 512)));
}
