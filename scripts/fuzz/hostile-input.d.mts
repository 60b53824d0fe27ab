// Types of hostile-input.mjs (for the TypeScript fuzz test files).
import type { Arbitrary, IAsyncProperty, Parameters } from "fast-check";

export declare const inheritedNames: readonly string[];
export declare const hostileNumbers: readonly number[];
export declare const hostileStrings: readonly string[];
export declare class RawJson {
  readonly text: string;
  constructor(text: string);
}
export declare function deepJson(depth: number, kind?: "array" | "object"): RawJson;
export declare function toBodyText(value: unknown): string;

/** Sizes of the generated huge strings and deeply nested values. */
export interface HostileOptions {
  hugeLength?: number;
  deepDepths?: number[];
}
export declare function hostileValue(options?: HostileOptions): Arbitrary<unknown>;
export declare function focusedBody(valid: unknown, focus: "inherited" | "numbers" | "deep" | "surrogates", options?: HostileOptions): Arbitrary<string>;
export declare function hostileBody(valid: unknown, options?: HostileOptions): Arbitrary<string>;
export declare const contentTypes: readonly (string | undefined)[];
export declare const headerText: Arbitrary<string>;
export declare function authorizationShapes(secret: string): Arbitrary<string | undefined>;
export declare const extraHeaders: Arbitrary<Partial<Record<string, string>>>;
export declare const hostileSegment: Arbitrary<string>;

/** An answer read in full. */
export interface FuzzAnswer {
  status: number;
  headers: Headers;
  text: string;
}
export declare function answerProblems(answer: FuzzAnswer, options: { errorBody: "gateway" | "dashboard"; secrets?: readonly string[]; upstreamFailures?: boolean }): string[];
export declare function assertProperty<Ts>(property: IAsyncProperty<Ts>, parameters?: Parameters<Ts>): Promise<void>;
