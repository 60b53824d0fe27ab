/** A JSON object as parsed from a wire body: its fields are not known yet. */
export type JsonObject = Record<string, unknown>;
