import { z } from "zod";

/** The endpoints a usage event can be about. */
export const usageEndpoints = ["decisions", "chat_completions", "messages", "count_tokens", "responses", "embeddings", "models", "playground", "mcp"] as const;

/** A usage event's endpoint (one of {@link usageEndpoints}). */
export const usageEndpointSchema = z.enum(usageEndpoints);

/** The endpoint a usage event is about. */
export type UsageEndpoint = z.infer<typeof usageEndpointSchema>;
