import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { expect } from "vitest";
import { formatSseEvent } from "../../stream/format-sse-event.js";
import { parseSseStream } from "../../stream/parse-sse-stream.js";
import type { SseEvent } from "../../stream/sse-event.js";

const fixturesRoot = fileURLToPath(new URL(".", import.meta.url));

/** Reads a fixture as text. */
export function readFixtureText(name: string): string {
  return readFileSync(join(fixturesRoot, name), "utf8");
}

/** Reads a JSON fixture. */
export function readFixtureJson(name: string): Record<string, unknown> {
  return JSON.parse(readFixtureText(name)) as Record<string, unknown>;
}

/**
 * Compares `actual` with the reviewed golden file `name`. `UPDATE_GOLDEN=1` rewrites the file
 * instead (review the diff before keeping it).
 */
export function expectGolden(name: string, actual: string): void {
  const path = join(fixturesRoot, name);
  if (process.env.UPDATE_GOLDEN === "1") {
    writeFileSync(path, actual);
    return;
  }
  if (!existsSync(path)) throw new Error(`Golden file ${name} is missing: run with UPDATE_GOLDEN=1 and review it.`);
  expect(actual).toBe(readFileSync(path, "utf8"));
}

/** {@link expectGolden} for a JSON value (pretty-printed). */
export function expectJsonGolden(name: string, value: unknown): void {
  expectGolden(name, `${JSON.stringify(value, null, 2)}\n`);
}

/** Splits text into UTF-8 byte chunks of `size` bytes (boundaries may cut characters). */
export async function* byteChunks(text: string, size: number): AsyncIterable<Uint8Array> {
  const bytes = new TextEncoder().encode(text);
  for (let offset = 0; offset < bytes.length; offset += size) yield bytes.slice(offset, offset + size);
}

/** Collects an async iterable. */
export async function collect<T>(items: AsyncIterable<T>): Promise<T[]> {
  const result: T[] = [];
  for await (const item of items) result.push(item);
  return result;
}

/** Parses an SSE fixture into events. */
export async function readSseFixture(name: string, chunkSize = 4096): Promise<SseEvent[]> {
  return collect(parseSseStream(byteChunks(readFixtureText(name), chunkSize)));
}

/** Serialises events back to the SSE wire format. */
export function toWire(events: SseEvent[]): string {
  return events.map(formatSseEvent).join("");
}

/** Yields the given events, as an upstream would. */
export async function* fromArray<T>(items: T[]): AsyncIterable<T> {
  for (const item of items) yield item;
}

/** The JSON payloads of `data:` events (skipping `[DONE]`). */
export function payloads(events: SseEvent[]): Record<string, unknown>[] {
  return events.filter((event) => event.data !== "[DONE]").map((event) => JSON.parse(event.data) as Record<string, unknown>);
}
