import { describe, expect, it } from "vitest";
import { servedEndpoints } from "./served-endpoints.js";
import type { AdapterConnection } from "../provider-adapter.js";
import { providerKindSchema, providerKinds } from "./provider-kinds.js";
import { createProviderAdapter, providerOf, registeredProviderList } from "./provider-registry.js";

const connectionOf = (kind: string): AdapterConnection => ({ id: kind, name: kind, kind, baseUrl: "http://127.0.0.1:9", credential: null, headers: {} });
const dependencies = { transport: undefined as never };

describe("provider registry", () => {
  it("registers one provider per folder of src/providers/, its kind the folder's name", () => {
    expect(providerKinds).toEqual(["anthropic", "azure-openai", "bedrock", "demo", "gemini", "openai", "systemone", "vertex"]);
    expect(registeredProviderList().map((provider) => provider.kind)).toEqual([...providerKinds]);
    expect(providerKindSchema.safeParse("mystery").success).toBe(false);
    expect(providerOf("mystery")).toBeUndefined();
  });

  it("gives a connection the models its provider has, and nothing for a capability it lacks", () => {
    const anthropic = createProviderAdapter(connectionOf("anthropic"), dependencies);
    expect(anthropic.chat?.passthrough).toEqual(["anthropic-messages"]);
    expect(anthropic.embeddings).toBeUndefined();
    const systemone = createProviderAdapter(connectionOf("systemone"), dependencies);
    expect(systemone.decisions?.passthrough).toEqual(["systemone-decisions"]);
    expect([systemone.chat, systemone.embeddings, systemone.tokenCounter]).toEqual([undefined, undefined, undefined]);
  });

  it("serves the endpoints the capabilities allow", () => {
    expect(servedEndpoints(connectionOf("anthropic"), "acme/text-embed-1")).toEqual([]);
    expect(servedEndpoints(connectionOf("openai"), "acme/text-embed-1")).toEqual(["embeddings"]);
    expect(servedEndpoints(connectionOf("systemone"), "acme/judge")).toEqual(["decisions"]);
    expect(servedEndpoints(connectionOf("demo"), "demo/chat")).toEqual(["chat_completions", "messages", "responses", "decisions"]);
  });

  it("refuses a connection of a kind no provider registers", () => {
    expect(() => createProviderAdapter(connectionOf("mystery"), dependencies)).toThrow(expect.objectContaining({ code: "internal_error" }));
  });
});
