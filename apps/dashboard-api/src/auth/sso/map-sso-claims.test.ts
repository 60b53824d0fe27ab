import { describe, expect, it } from "vitest";
import { mapSsoClaims, readGroupsClaim } from "./map-sso-claims.js";

const configuration = {
  allowedEmailDomains: ["acme.test"],
  groupsClaim: "groups",
  roleMappings: [
    { group: "admins", role: "admin" as const },
    { group: "owners", role: "owner" as const },
    { group: "staff", role: "member" as const },
  ],
  teamMappings: [{ group: "staff", team_id: "team_1" }],
  projectMappings: [
    { group: "staff", project_id: "project_1" },
    { group: "admins", project_id: "project_1" },
  ],
  defaultRole: "viewer" as const,
};

describe("mapSsoClaims", () => {
  it("takes the most powerful mapped role and the granted teams and projects once", () => {
    const mapped = mapSsoClaims({ sub: "u1", email: "Ada@ACME.test", name: "Ada", groups: ["staff", "admins", "unmapped"] }, configuration);
    expect(mapped).toMatchObject({ subject: "u1", email: "Ada@ACME.test", mappedRole: "admin", role: "admin", teamIds: ["team_1"], projectIds: ["project_1"] });
  });

  it("falls back to the default role when no group is mapped", () => {
    expect(mapSsoClaims({ sub: "u1", email: "a@acme.test" }, configuration)).toMatchObject({ mappedRole: null, role: "viewer", groups: [] });
  });

  it("refuses another domain, an unverified email and a missing email", () => {
    expect(() => mapSsoClaims({ sub: "u1", email: "a@evil.test" }, configuration)).toThrow(/evil\.test/);
    expect(() => mapSsoClaims({ sub: "u1", email: "a@acme.test", email_verified: false }, configuration)).toThrow(/not verified/);
    expect(() => mapSsoClaims({ sub: "u1" }, configuration)).toThrow(/no email/);
  });

  it("accepts any domain when none is listed, and a name from given and family names", () => {
    const mapped = mapSsoClaims({ sub: "u1", email: "a@anywhere.test", given_name: "Grace", family_name: "Hopper" }, { ...configuration, allowedEmailDomains: [] });
    expect(mapped.name).toBe("Grace Hopper");
  });

  it("reads a groups claim sent as one string, and ignores non-strings", () => {
    expect(readGroupsClaim({ roles: "admins" }, "roles")).toEqual(["admins"]);
    expect(readGroupsClaim({ groups: ["a", 1, null, "b"] }, "groups")).toEqual(["a", "b"]);
    expect(readGroupsClaim({}, "groups")).toEqual([]);
  });
});
