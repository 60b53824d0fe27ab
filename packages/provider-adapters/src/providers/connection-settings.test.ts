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
});
