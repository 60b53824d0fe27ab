import { describe, expect, it } from "vitest";
import { checkConnectionSettings } from "./connection-settings.js";

describe("checkConnectionSettings", () => {
  it("accepts {} for a provider without settings of its own", () => {
    expect(checkConnectionSettings("openai", {})).toEqual({ ok: true, settings: {} });
  });

  it("names the setting a provider without settings does not have", () => {
    expect(checkConnectionSettings("anthropic", { region: "us-east-1" })).toEqual({
      ok: false,
      issue: { path: ["region"], message: "anthropic connections have no setting 'region'" },
    });
  });

  it("refuses settings that are not an object", () => {
    const checked = checkConnectionSettings("openai", ["a"]);
    expect(checked.ok).toBe(false);
  });

  it("checks Bedrock settings strictly: a region is kept, a misspelt field is named", () => {
    expect(checkConnectionSettings("bedrock", { region: "eu-west-1", roleArn: "arn:aws:iam::123456789012:role/gateway" })).toEqual({
      ok: true,
      settings: { region: "eu-west-1", roleArn: "arn:aws:iam::123456789012:role/gateway" },
    });
    expect(checkConnectionSettings("bedrock", { regoin: "eu-west-1" })).toMatchObject({ ok: false, issue: { path: ["regoin"] } });
    expect(checkConnectionSettings("bedrock", { region: "Europe" })).toMatchObject({ ok: false, issue: { path: ["region"] } });
  });

  it("requires a Vertex connection's project and location", () => {
    expect(checkConnectionSettings("vertex", { project: "my-project", location: "us-east5" })).toEqual({ ok: true, settings: { project: "my-project", location: "us-east5" } });
    expect(checkConnectionSettings("vertex", { location: "us-east5" })).toMatchObject({ ok: false, issue: { path: ["project"] } });
    expect(checkConnectionSettings("vertex", { project: "p", location: "us-east5.evil" })).toMatchObject({ ok: false, issue: { path: ["location"] } });
  });
});
