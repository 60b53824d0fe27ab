import type { StreamPart } from "../stream/stream-part.js";
import type { TextSegment } from "./text-segments.js";

/**
 * Where a part's text sits in the JSON answer it was decoded from: its path (so that a redaction
 * is written back), whether it may be rewritten, and the value there as the answer carried it
 * (a tool call's arguments: a JSON string in the OpenAI formats, an object in Anthropic's).
 */
export interface AnswerLocation {
  path: (string | number)[];
  rewritable?: false;
  value?: unknown;
}

/** An item of a JSON answer that no part carries (an image, a server tool's result), named by its type, in answer order. */
export interface OpaqueAnswerItem {
  choice: number;
  /** How many parts come before it. */
  after: number;
  type: string;
}

/**
 * A JSON answer read into the parts vocabulary of streams (`start`, `text-delta`,
 * `reasoning-delta`, `tool-call-*`, `finish`, `usage`, `end`): one reading per format, from which
 * guardrail texts and trace messages are derived.
 */
export interface DecodedAnswer {
  parts: StreamPart[];
  /** Index-aligned with `parts`: where a `text-delta` or `tool-call-delta` sits in the answer (null for others, or a text not taken from it). */
  locations: (AnswerLocation | null)[];
  /** The answer's choices, including those without any part (the messages and Responses formats have one). */
  choices: number;
  opaque: OpaqueAnswerItem[];
}

/** A decoded answer being built, part by part. */
export class AnswerBuilder {
  readonly parts: StreamPart[] = [];
  readonly locations: (AnswerLocation | null)[] = [];
  readonly opaque: OpaqueAnswerItem[] = [];

  push(part: StreamPart, location: AnswerLocation | null = null): void {
    this.parts.push(part);
    this.locations.push(location);
  }

  /** Names an item no part carries (so that traces still show it was there). */
  skip(choice: number, type: unknown): void {
    this.opaque.push({ choice, after: this.parts.length, type: typeof type === "string" ? type : "unknown" });
  }

  build(choices: number): DecodedAnswer {
    return { parts: this.parts, locations: this.locations, choices, opaque: this.opaque };
  }
}

/**
 * The texts of a decoded answer that guardrails check, in answer order: visible text (not a
 * refusal), rewritable where it sits; each tool call's arguments, checked but never rewritten.
 */
export function answerTextsOf(answer: DecodedAnswer): TextSegment[] {
  const segments: TextSegment[] = [];
  answer.parts.forEach((part, index) => {
    const location = answer.locations[index];
    if (location === null || location === undefined) return;
    if (part.type === "text-delta" && part.refusal !== true) segments.push({ path: location.path, text: part.text, ...(location.rewritable === false ? { rewritable: false as const } : {}) });
    else if (part.type === "tool-call-delta") segments.push({ path: location.path, text: part.argumentsDelta, rewritable: false });
  });
  return segments;
}
