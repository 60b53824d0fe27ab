import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { databaseTargets } from "./support/test-database.js";
import { startTestDashboard, type TestDashboard } from "./support/test-dashboard.js";

describe.each(databaseTargets)("audit log filters (%s)", (target) => {
  let harness: TestDashboard;
  let owner: string;

  beforeAll(async () => {
    harness = await startTestDashboard({ target });
    const organizationId = (await harness.createOrganization()).id;
    const member = await harness.createMember({ organizationId, role: "owner" });
    owner = await harness.login(member.email, member.password);
    const project = await harness.request("POST", "/api/projects", { cookie: owner, body: { name: "Audited" } });
    const key = await harness.request("POST", "/api/api-keys", { cookie: owner, body: { name: "audited key", project_id: project.body.id } });
    await harness.request("DELETE", `/api/api-keys/${key.body.id}`, { cookie: owner });
  });
  afterAll(async () => harness.close());

  const actions = async (query: string) => {
    const response = await harness.request("GET", `/api/audit-events?${query}`, { cookie: owner });
    expect(response.status, response.text).toBe(200);
    return (response.body.data as { action: string }[]).map((event) => event.action).sort();
  };

  it("matches the start of an action or a target type, and a whole one still", async () => {
    expect(await actions("action=api_key")).toEqual(["api_key.created", "api_key.revoked"]);
    expect(await actions("action=api_key.")).toEqual(["api_key.created", "api_key.revoked"]);
    expect(await actions("action=api_key.revoked")).toEqual(["api_key.revoked"]);
    expect(await actions("action=project.cr")).toEqual(["project.created"]);
    expect(await actions("target_type=api")).toEqual(["api_key.created", "api_key.revoked"]);
    expect(await actions("action=api_key&target_type=project")).toEqual([]);
    expect(await actions("action=key")).toEqual([]);
  });
});
