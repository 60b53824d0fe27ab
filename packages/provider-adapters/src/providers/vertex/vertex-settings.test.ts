import { describe, expect, it } from "vitest";
import { vertexSettingsSchema } from "./vertex-settings.js";

describe("vertexSettingsSchema", () => {
  it("reads project, location and defaultMaxTokens", () => {
    expect(vertexSettingsSchema.parse({ settings: { project: "my-project", location: "us-east5" }, defaultMaxTokens: 2048 })).toEqual({ project: "my-project", location: "us-east5", defaultMaxTokens: 2048 });
  });

  it("leaves out a location that could change the API host, and defaults what is missing", () => {
    expect(vertexSettingsSchema.parse({ settings: { project: "my-project", location: "evil.example/x" } })).toEqual({ project: "my-project", location: null, defaultMaxTokens: 4096 });
    expect(vertexSettingsSchema.parse({})).toEqual({ project: null, location: null, defaultMaxTokens: 4096 });
  });
});
