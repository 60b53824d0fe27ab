import { z } from "zod";

/** The kinds of provider connection: the one list the database, the dashboard and the configuration file check against. */
export const connectionKinds = ["openai", "anthropic", "systemone", "demo"] as const;

/** A connection kind (one of {@link connectionKinds}). */
export const connectionKindSchema = z.enum(connectionKinds);

/** The kinds of provider connection. */
export type ConnectionKind = z.infer<typeof connectionKindSchema>;
