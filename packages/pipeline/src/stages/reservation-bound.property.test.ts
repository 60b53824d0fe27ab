import { computeCostMicros } from "@gateway/budget";
import type { ModelPrice, SnapshotConnection } from "@gateway/contracts";
import { GatewayError } from "@gateway/errors";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { createTestSnapshot } from "../__fixtures__/create-test-snapshot.js";
import type { InferenceEndpoint } from "../call/inference-endpoint.js";
import { chatCompletionsEndpoint, messagesEndpoint } from "../endpoints/chat-endpoints.js";
import { embeddingsEndpoint } from "../endpoints/embeddings-endpoint.js";
import { createResponsesEndpoint } from "../endpoints/responses-endpoint.js";
import { compileSnapshot } from "../runtime/compile-snapshot.js";
import { identityForApiKeyId } from "./authenticate.js";
import type { RoutePlan } from "./resolve-route.js";

/**
 * The reservation (what admission holds on a hard budget) is never below what the call is billed,
 * on every route that spends, for generated requests: text in any script (CJK, emoji, lone
 * surrogates), images of any size given as base64 or as URLs (whose size the gateway cannot know),
 * audio, tools and schemas, n choices, caps or none. The billing below is the mock provider's: it
 * bills the way the provider documents (images by the model's rule on the real size; audio by
 * duration), with text at its worst (one token per UTF-8 byte) and output at the most the cap
 * and the model allow.
 */

interface Model {
  connection: "oa" | "an";
  model: string;
  price: ModelPrice;
  bill: (size: { width: number; height: number }, detail: string | null) => number;
}

function openAiTiles(base: number, tile: number) {
  return (size: { width: number; height: number }, detail: string | null) => {
    if (detail === "low") return base;
    let { width, height } = size;
    const fit = Math.min(1, 2048 / Math.max(width, height));
    width = Math.floor(width * fit);
    height = Math.floor(height * fit);
    const shortest = Math.min(width, height);
    if (shortest > 768) {
      width = Math.floor((width * 768) / shortest);
      height = Math.floor((height * 768) / shortest);
    }
    return base + tile * Math.max(1, Math.ceil(width / 512)) * Math.max(1, Math.ceil(height / 512));
  };
}

function openAiPatches(multiplier: number) {
  return (size: { width: number; height: number }) => {
    let patches = Math.ceil(size.width / 32) * Math.ceil(size.height / 32);
    if (patches > 1536) {
      const scale = Math.sqrt((1536 * 32 * 32) / (size.width * size.height));
      patches = Math.min(1536, Math.ceil(Math.floor(size.width * scale) / 32) * Math.ceil(Math.floor(size.height * scale) / 32));
    }
    return Math.floor(patches * multiplier);
  };
}

function claudePixels(longEdge: number, megapixels: number, patches: boolean) {
  return (size: { width: number; height: number }) => {
    const scale = Math.min(1, longEdge / Math.max(size.width, size.height), Math.sqrt((megapixels * 1e6) / (size.width * size.height)));
    const width = Math.max(1, Math.floor(size.width * scale));
    const height = Math.max(1, Math.floor(size.height * scale));
    return patches ? Math.ceil(width / 28) * Math.ceil(height / 28) : Math.ceil((width * height) / 750);
  };
}

const models: Model[] = [
  { connection: "oa", model: "openai/gpt-4o", price: { input: 2.5, output: 10, cacheRead: 1.25, maxOutputTokens: 16_384, contextWindow: 128_000 }, bill: openAiTiles(85, 170) },
  { connection: "oa", model: "openai/gpt-4o-mini", price: { input: 0.15, output: 0.6, cacheRead: 0.075, maxOutputTokens: 16_384, contextWindow: 128_000 }, bill: openAiTiles(2833, 5667) },
  { connection: "oa", model: "openai/gpt-4.1-nano", price: { input: 0.1, output: 0.4, cacheRead: 0.025, maxOutputTokens: 32_768, contextWindow: 1_047_576 }, bill: openAiPatches(2.46) },
  // A model the gateway does not recognise, on an OpenAI-compatible server that bills like GPT-4o.
  { connection: "oa", model: "openai/random", price: { input: 100, output: 100 }, bill: openAiTiles(85, 170) },
  {
    connection: "an",
    model: "anthropic/claude-sonnet-4-20250514",
    price: { input: 3, output: 15, cacheRead: 0.3, cacheWrite: 3.75, maxOutputTokens: 64_000, contextWindow: 200_000 },
    bill: claudePixels(1568, 1.15, false),
  },
  {
    connection: "an",
    model: "anthropic/claude-opus-4-7",
    price: { input: 5, output: 25, cacheRead: 0.5, cacheWrite: 6.25, maxOutputTokens: 128_000, contextWindow: 1_000_000 },
    bill: claudePixels(2576, 3.75, true),
  },
];

function connectionOf(name: "oa" | "an"): SnapshotConnection {
  const own = models.filter((model) => model.connection === name);
  return {
    id: `con_${name}`,
    organizationId: "org_1",
    name,
    kind: name === "oa" ? "openai" : "anthropic",
    baseUrl: "http://127.0.0.1:9",
    credential: "sk-test",
    headers: {},
    models: own.map((model) => model.model),
    upstreamModelNames: {},
    enabled: true,
    prices: Object.fromEntries(own.map((model) => [model.model, model.price])),
    logprobs: null,
    defaultMaxTokens: null,
    timeouts: {},
    responsesApi: null,
    modelEndpoints: {},
  } as SnapshotConnection;
}

const snapshot = compileSnapshot(
  createTestSnapshot({
    connections: [connectionOf("oa"), connectionOf("an")],
    budgets: [{ id: "b1", organizationId: "org_1", name: "cap", scope: "organization", scopeId: "org_1", amountMicros: 1_000_000, period: "month", mode: "hard", thresholds: [] }],
  }),
);
const identity = identityForApiKeyId("key_1", snapshot)!;
const connections = { oa: snapshot.snapshot.connections.find((connection) => connection.name === "oa")!, an: snapshot.snapshot.connections.find((connection) => connection.name === "an")! };

function planFor(model: Model): RoutePlan {
  const connection = connections[model.connection];
  return {
    requestedModel: `${connection.name}/${model.model}`,
    route: null,
    targets: [{ connection, upstreamModel: model.model.slice(model.model.indexOf("/") + 1), qualifiedModel: `${connection.name}/${model.model}` }],
    maxAttemptsPerTarget: 1,
    affinityKey: null,
  } as RoutePlan;
}

/** A PNG's signature and IHDR, then some bytes. */
function pngBase64(width: number, height: number): string {
  const header = Buffer.alloc(40);
  Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]).copy(header, 0);
  header.writeUInt32BE(13, 8);
  header.write("IHDR", 12, "ascii");
  header.writeUInt32BE(width, 16);
  header.writeUInt32BE(height, 20);
  return header.toString("base64");
}

// ---- generated pieces ----

const text = fc.string({ unit: "binary", maxLength: 200 });
const size = fc.record({ width: fc.integer({ min: 1, max: 12_000 }), height: fc.integer({ min: 1, max: 12_000 }) });
/** An image: base64 (the gateway can read its size) or a loopback URL (it cannot; the mock knows the real size). */
const image = fc.record({ size, inline: fc.boolean(), detail: fc.constantFrom(null, "low", "high", "auto"), id: fc.uuid() });
type GeneratedImage = { size: { width: number; height: number }; inline: boolean; detail: string | null; id: string };
const audio = fc.record({ bytes: fc.integer({ min: 1, max: 30_000 }), bytesPerSecond: fc.integer({ min: 1000, max: 32_000 }) });
const tools = fc.option(
  fc.array(fc.record({ name: fc.stringMatching(/^[a-z_]{1,20}$/), description: text, property: fc.stringMatching(/^[a-z]{1,12}$/) }), { minLength: 1, maxLength: 3 }),
  { nil: null },
);
const cap = fc.option(fc.integer({ min: 1, max: 200_000 }), { nil: null });

function imageUrl(generated: GeneratedImage): string {
  if (generated.inline) return `data:image/png;base64,${pngBase64(generated.size.width, generated.size.height)}`;
  // The mock provider "fetches" it: it bills the generated size, which the gateway cannot see.
  return `http://127.0.0.1:9/images/${generated.id}.png`;
}

/** What the mock provider bills, in the gateway's price table terms. */
interface Billing {
  textBytes: number;
  messages: number;
  images: GeneratedImage[];
  audioSeconds: number;
  hasTools: boolean;
  outputCap: number | null;
  choices: number;
  /** A file part (a PDF): the provider bills its pages and text, up to what the context window holds (this share of it). */
  fileShare: number | null;
  /** Bytes of a predicted output (rejected predicted tokens are billed as output). */
  predictionBytes: number;
}

const bytes = (value: string) => Buffer.byteLength(value, "utf8");

function billedCost(model: Model, billing: Billing, split: { cacheRead: number; cacheWrite: number; output: number }): number {
  const connection = connections[model.connection];
  let input = billing.textBytes + 4 * billing.messages + 3 + Math.ceil(billing.audioSeconds * 10);
  if (billing.hasTools && model.connection === "an") input += 346;
  for (const generated of billing.images) input += model.bill(generated.size, generated.detail);
  // A prompt beyond the context window is refused by the provider, unbilled: a file fills at most what is left of it.
  if (billing.fileShare !== null) input = Math.max(input, Math.floor((model.price.contextWindow ?? 0) * billing.fileShare));
  // The provider never exceeds the request's cap (the adapter's 4096 default on Anthropic) nor the model's maximum.
  const limits = [model.price.maxOutputTokens ?? Number.POSITIVE_INFINITY, billing.outputCap ?? (connection.kind === "anthropic" ? 4096 : Number.POSITIVE_INFINITY)];
  const perChoice = Math.min(...limits);
  const output = (Number.isFinite(perChoice) ? Math.floor(perChoice * billing.choices * split.output) : 0) + billing.predictionBytes;
  const cacheRead = Math.floor(input * split.cacheRead);
  const cacheWrite = Math.floor((input - cacheRead) * split.cacheWrite);
  return computeCostMicros({ inputTokens: input - cacheRead - cacheWrite, outputTokens: output, cacheReadTokens: cacheRead, cacheWriteTokens: cacheWrite }, model.price);
}

const split = fc.record({ cacheRead: fc.double({ min: 0, max: 1, noNaN: true }), cacheWrite: fc.double({ min: 0, max: 1, noNaN: true }), output: fc.constantFrom(0, 0.5, 1) });
const model = fc.constantFrom(...models);

function check(endpoint: InferenceEndpoint<any>, chosen: Model, body: Record<string, unknown>, billing: Billing, shares: typeof split extends fc.Arbitrary<infer T> ? T : never) {
  const request = endpoint.parse(JSON.parse(JSON.stringify(body)));
  let reserved: number;
  try {
    reserved = endpoint.admission({ snapshot, identity, plan: planFor(chosen), request })!.estimatedCostMicros;
  } catch (error) {
    // Refused as unbounded: only when nothing bounds the output, or a file's input.
    expect(GatewayError.isInstance(error) && error.code).toBe("hard_budget_unbounded_request");
    const noOutputBound = billing.outputCap === null && chosen.price.maxOutputTokens === undefined && chosen.price.contextWindow === undefined;
    expect(noOutputBound || (billing.fileShare !== null && chosen.price.contextWindow === undefined)).toBe(true);
    return;
  }
  const billed = billedCost(chosen, billing, shares);
  expect(reserved).toBeGreaterThanOrEqual(billed);
}

describe("the reservation bounds the billed cost on every route (property)", () => {
  it("chat completions: text, images, audio, files, tools, predicted output, n and caps", () => {
    const part = fc.oneof(
      text.map((value) => ({ kind: "text" as const, value })),
      image.map((value) => ({ kind: "image" as const, value })),
      audio.map((value) => ({ kind: "audio" as const, value })),
    );
    const message = fc.record({ role: fc.constantFrom("user", "assistant", "system"), content: fc.oneof(text, fc.array(part, { minLength: 1, maxLength: 4 })) });
    fc.assert(
      fc.property(model, fc.array(message, { minLength: 1, maxLength: 4 }), tools, cap, fc.integer({ min: 1, max: 4 }), split, fc.option(fc.double({ min: 0, max: 1, noNaN: true }), { nil: null }), fc.option(text, { nil: null }), (chosen, messages, definitions, outputCap, n, shares, fileShare, prediction) => {
        const billing: Billing = { textBytes: 0, messages: messages.length, images: [], audioSeconds: 0, hasTools: definitions !== null, outputCap, choices: n, fileShare, predictionBytes: prediction === null ? 0 : bytes(prediction) };
        const body: Record<string, unknown> = {
          model: `${chosen.connection}/${chosen.model}`,
          messages: messages.map((entry) => {
            if (typeof entry.content === "string") {
              billing.textBytes += bytes(entry.content);
              return { role: entry.role, content: entry.content };
            }
            return {
              role: entry.role,
              content: entry.content.map((piece) => {
                if (piece.kind === "text") {
                  billing.textBytes += bytes(piece.value);
                  return { type: "text", text: piece.value };
                }
                if (piece.kind === "image") {
                  billing.images.push(piece.value);
                  return { type: "image_url", image_url: { url: imageUrl(piece.value), ...(piece.value.detail === null ? {} : { detail: piece.value.detail }) } };
                }
                billing.audioSeconds += piece.value.bytes / piece.value.bytesPerSecond;
                return { type: "input_audio", input_audio: { data: Buffer.alloc(piece.value.bytes, 7).toString("base64"), format: "mp3" } };
              }),
            };
          }),
          n,
        };
        if (outputCap !== null) body.max_completion_tokens = outputCap;
        if (fileShare !== null) {
          (body.messages as { content: unknown }[]).push({ role: "user", content: [{ type: "file", file: { filename: "report.pdf", file_data: "data:application/pdf;base64,JVBERi0xLjcK" } }] } as never);
        }
        if (prediction !== null) body.prediction = { type: "content", content: prediction };
        if (definitions !== null) {
          body.tools = definitions.map((tool) => ({
            type: "function",
            function: { name: tool.name, description: tool.description, parameters: { type: "object", properties: { [tool.property]: { type: "string" } } } },
          }));
          billing.textBytes += bytes(JSON.stringify(body.tools));
        }
        check(chatCompletionsEndpoint, chosen, body, billing, shares);
      }),
      { numRuns: 300 },
    );
  });

  it("messages: system, text and image blocks (base64 or URL), tools, max_tokens", () => {
    const block = fc.oneof(text.map((value) => ({ kind: "text" as const, value })), image.map((value) => ({ kind: "image" as const, value })));
    const message = fc.record({ role: fc.constantFrom("user", "assistant"), content: fc.oneof(text, fc.array(block, { minLength: 1, maxLength: 4 })) });
    fc.assert(
      fc.property(model, text, fc.array(message, { minLength: 1, maxLength: 4 }), tools, fc.integer({ min: 1, max: 200_000 }), split, (chosen, system, messages, definitions, maxTokens, shares) => {
        const billing: Billing = { textBytes: bytes(system), messages: messages.length, images: [], audioSeconds: 0, hasTools: definitions !== null, outputCap: maxTokens, choices: 1, fileShare: null, predictionBytes: 0 };
        const body: Record<string, unknown> = {
          model: `${chosen.connection}/${chosen.model}`,
          system,
          max_tokens: maxTokens,
          messages: messages.map((entry) => {
            if (typeof entry.content === "string") {
              billing.textBytes += bytes(entry.content);
              return { role: entry.role, content: entry.content };
            }
            return {
              role: entry.role,
              content: entry.content.map((piece) => {
                if (piece.kind === "text") {
                  billing.textBytes += bytes(piece.value);
                  return { type: "text", text: piece.value };
                }
                billing.images.push(piece.value);
                const url = imageUrl(piece.value);
                return piece.value.inline
                  ? { type: "image", source: { type: "base64", media_type: "image/png", data: url.slice(url.indexOf(",") + 1) } }
                  : { type: "image", source: { type: "url", url } };
              }),
            };
          }),
        };
        if (definitions !== null) {
          body.tools = definitions.map((tool) => ({ name: tool.name, description: tool.description, input_schema: { type: "object", properties: { [tool.property]: { type: "string" } } } }));
          billing.textBytes += bytes(JSON.stringify(body.tools));
        }
        check(messagesEndpoint, chosen, body, billing, shares);
      }),
      { numRuns: 300 },
    );
  });

  it("responses: input text and input_image items, max_output_tokens or none", () => {
    const responses = createResponsesEndpoint({ store: null });
    const item = fc.oneof(text.map((value) => ({ kind: "text" as const, value })), image.map((value) => ({ kind: "image" as const, value })));
    fc.assert(
      fc.property(model, fc.oneof(text, fc.array(item, { minLength: 1, maxLength: 5 })), cap, split, (chosen, input, outputCap, shares) => {
        const billing: Billing = { textBytes: 0, messages: 1, images: [], audioSeconds: 0, hasTools: false, outputCap, choices: 1, fileShare: null, predictionBytes: 0 };
        let bodyInput: unknown;
        if (typeof input === "string") {
          billing.textBytes += bytes(input);
          bodyInput = input;
        } else {
          bodyInput = [
            {
              role: "user",
              content: input.map((piece) => {
                if (piece.kind === "text") {
                  billing.textBytes += bytes(piece.value);
                  return { type: "input_text", text: piece.value };
                }
                billing.images.push(piece.value);
                return { type: "input_image", image_url: imageUrl(piece.value), detail: piece.value.detail ?? "auto" };
              }),
            },
          ];
        }
        const body: Record<string, unknown> = { model: `${chosen.connection}/${chosen.model}`, input: bodyInput };
        if (outputCap !== null) body.max_output_tokens = outputCap;
        check(responses, chosen, body, billing, shares);
      }),
      { numRuns: 300 },
    );
  });

  it("embeddings: texts and token arrays", () => {
    const openAiModels = models.filter((candidate) => candidate.connection === "oa");
    fc.assert(
      fc.property(
        fc.constantFrom(...openAiModels),
        fc.oneof(fc.array(text.filter((value) => value !== ""), { minLength: 1, maxLength: 5 }), fc.array(fc.array(fc.integer({ min: 0, max: 200_000 }), { minLength: 1, maxLength: 50 }), { minLength: 1, maxLength: 5 })),
        split,
        (chosen, input, shares) => {
          const textBytes = input.reduce<number>((sum, entry) => sum + (typeof entry === "string" ? bytes(entry) : (entry as number[]).length), 0);
          const billing: Billing = { textBytes, messages: 0, images: [], audioSeconds: 0, hasTools: false, outputCap: 0, choices: 1, fileShare: null, predictionBytes: 0 };
          check(embeddingsEndpoint, chosen, { model: `oa/${chosen.model}`, input }, billing, { ...shares, output: 0 });
        },
      ),
      { numRuns: 200 },
    );
  });
});
