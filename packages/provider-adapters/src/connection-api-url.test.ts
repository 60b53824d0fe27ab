import { describe, expect, it } from "vitest";
import { connectionApiUrl } from "./providers/provider-registry.js";

describe("connectionApiUrl: one base-URL rule for every connection kind", () => {
  it.each([
    "https://api.openai.com",
    "https://api.openai.com/",
    "https://api.openai.com/v1",
    "https://api.openai.com/v1/",
    "https://api.openai.com/v1//",
  ])("openai: %s reaches /v1/chat/completions", (baseUrl) => {
    expect(connectionApiUrl("openai", baseUrl, "/chat/completions")).toBe("https://api.openai.com/v1/chat/completions");
  });

  it.each(["http://10.0.0.5:8000", "http://10.0.0.5:8000/v1/"])("openai: a local server %s works with or without /v1", (baseUrl) => {
    expect(connectionApiUrl("openai", baseUrl, "/embeddings")).toBe("http://10.0.0.5:8000/v1/embeddings");
  });

  it("openai: an API under a prefix of its own is taken as given", () => {
    expect(connectionApiUrl("openai", "https://api.groq.com/openai/v1", "/chat/completions")).toBe("https://api.groq.com/openai/v1/chat/completions");
    expect(connectionApiUrl("openai", "https://generativelanguage.googleapis.com/v1beta/openai/", "/chat/completions")).toBe(
      "https://generativelanguage.googleapis.com/v1beta/openai/chat/completions",
    );
  });

  it.each(["https://api.anthropic.com", "https://api.anthropic.com/", "https://api.anthropic.com/v1", "https://api.anthropic.com/v1/"])(
    "anthropic: %s reaches /v1/messages",
    (baseUrl) => {
      expect(connectionApiUrl("anthropic", baseUrl, "/messages")).toBe("https://api.anthropic.com/v1/messages");
    },
  );

  it("anthropic behind a proxy prefix keeps the prefix and adds /v1", () => {
    expect(connectionApiUrl("anthropic", "https://proxy.example/anthropic", "/messages/count_tokens")).toBe(
      "https://proxy.example/anthropic/v1/messages/count_tokens",
    );
  });

  it.each(["http://decisions.internal:9000", "http://decisions.internal:9000/v1/"])("systemone: %s reaches /v1/systemone", (baseUrl) => {
    expect(connectionApiUrl("systemone", baseUrl, "/systemone")).toBe("http://decisions.internal:9000/v1/systemone");
  });
});
