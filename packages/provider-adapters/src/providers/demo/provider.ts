import { z } from "zod";
import { defineProvider } from "../provider-definition.js";
import { demoChatModel, demoDecisionModel, demoEmbeddingModel, demoTokenCounter } from "./demo-adapter.js";

/** The built-in offline demo provider: every capability, no network, no credential. */
export const provider = defineProvider({
  kind: "demo",
  label: "Demo (offline)",
  network: false,
  defaultBaseUrl: null,
  baseUrlPathIsApiRoot: false,
  credentialHeaders: () => ({}),
  settingsSchema: z.object({}),
  models: ["demo/chat", "demo/decide", "demo/embed"],
  chat: () => demoChatModel,
  embeddings: () => demoEmbeddingModel,
  tokenCounter: () => demoTokenCounter,
  decisions: () => demoDecisionModel,
});
