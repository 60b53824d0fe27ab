import { randomBytes } from "node:crypto";
import type { StoredResponse } from "@gateway/contracts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  createOrganization,
  createProject,
  deleteProject,
  deleteStoredResponse,
  deleteStoredResponsesSweep,
  openDataPlaneDatabase,
  readStoredResponse,
  writeStoredResponse,
  type DataPlaneDatabase,
  type Database,
} from "../src/index.js";
import { databaseTargets, type FreshDatabase } from "./database-targets.js";

describe.each(databaseTargets)("stored responses on the raw driver ($provider)", (target) => {
  let fresh: FreshDatabase;
  let db: Database;
  let dataPlane: DataPlaneDatabase;
  let organizationId: string;
  let projectA: string;
  let projectB: string;

  beforeAll(async () => {
    if (target.skip) return;
    fresh = await target.fresh();
    db = fresh.open();
    await db.migrate();
    dataPlane = openDataPlaneDatabase({ url: fresh.url, postgresqlPoolSize: 2 });
    organizationId = (await createOrganization(db, { name: "Acme", slug: `acme-${randomBytes(3).toString("hex")}` })).id;
    projectA = (await createProject(db, { organizationId, name: "a", captureContent: true })).id;
    projectB = (await createProject(db, { organizationId, name: "b", captureContent: true })).id;
  });
  afterAll(async () => {
    if (target.skip) return;
    await dataPlane.close();
    await db.close();
    await fresh.cleanup();
  });

  const record = (fields: Partial<StoredResponse> & Pick<StoredResponse, "id" | "projectId">): StoredResponse => ({
    organizationId,
    apiKeyId: "key_1",
    createdAt: new Date("2030-01-02T03:04:05.678Z"),
    expiresAt: new Date("2030-02-01T00:00:00.000Z"),
    response: { id: fields.id, object: "response", output: [{ type: "message", content: [{ type: "output_text", text: "héllo ✓" }] }] },
    inputItems: [{ id: "msg_in", type: "message", role: "user", content: [{ type: "input_text", text: "hi" }] }],
    conversation: [{ type: "message", role: "user", content: "hi" }],
    ...fields,
  });
  const now = new Date("2030-01-10T00:00:00.000Z");

  it.skipIf(target.skip)("reads back what was written, within its project only; a write is readable as soon as it resolved", async () => {
    const written = record({ id: "resp_a1", projectId: projectA });
    await writeStoredResponse(dataPlane, written);
    expect(await readStoredResponse(dataPlane, { projectId: projectA, id: "resp_a1", now })).toEqual(written);
    expect(await readStoredResponse(dataPlane, { projectId: projectB, id: "resp_a1", now })).toBeNull();
    expect(await readStoredResponse(dataPlane, { projectId: projectA, id: "resp_missing", now })).toBeNull();
  });

  it.skipIf(target.skip)("an id stored in another project is never overwritten; the same project's write replaces it", async () => {
    await writeStoredResponse(dataPlane, record({ id: "resp_shared", projectId: projectA }));
    await writeStoredResponse(dataPlane, record({ id: "resp_shared", projectId: projectB, response: { id: "resp_shared", intruder: true } }));
    expect((await readStoredResponse(dataPlane, { projectId: projectA, id: "resp_shared", now }))?.response).not.toHaveProperty("intruder");
    await writeStoredResponse(dataPlane, record({ id: "resp_shared", projectId: projectA, response: { id: "resp_shared", second: true } }));
    expect((await readStoredResponse(dataPlane, { projectId: projectA, id: "resp_shared", now }))?.response).toEqual({ id: "resp_shared", second: true });
  });

  it.skipIf(target.skip)("deletes within the project only, and reports whether it deleted", async () => {
    await writeStoredResponse(dataPlane, record({ id: "resp_del", projectId: projectA }));
    expect(await deleteStoredResponse(dataPlane, { projectId: projectB, id: "resp_del" })).toBe(false);
    expect(await deleteStoredResponse(dataPlane, { projectId: projectA, id: "resp_del" })).toBe(true);
    expect(await deleteStoredResponse(dataPlane, { projectId: projectA, id: "resp_del" })).toBe(false);
    expect(await readStoredResponse(dataPlane, { projectId: projectA, id: "resp_del", now })).toBeNull();
  });

  it.skipIf(target.skip)("expired responses are not read and are swept; a project that stopped capturing content loses its stored responses", async () => {
    await writeStoredResponse(dataPlane, record({ id: "resp_old", projectId: projectA, expiresAt: new Date("2030-01-05T00:00:00.000Z") }));
    await writeStoredResponse(dataPlane, record({ id: "resp_b", projectId: projectB }));
    expect(await readStoredResponse(dataPlane, { projectId: projectA, id: "resp_old", now })).toBeNull();
    expect(await readStoredResponse(dataPlane, { projectId: projectA, id: "resp_old", now: new Date("2030-01-04T00:00:00.000Z") })).not.toBeNull();
    await deleteStoredResponsesSweep(dataPlane, { now, projectIds: [projectB] });
    expect(await readStoredResponse(dataPlane, { projectId: projectA, id: "resp_old", now: new Date("2030-01-04T00:00:00.000Z") })).toBeNull();
    expect(await readStoredResponse(dataPlane, { projectId: projectB, id: "resp_b", now })).toBeNull();
    expect(await readStoredResponse(dataPlane, { projectId: projectA, id: "resp_a1", now })).not.toBeNull();
  });

  it.skipIf(target.skip)("deleting a project deletes its stored responses", async () => {
    const doomed = (await createProject(db, { organizationId, name: `doomed-${randomBytes(2).toString("hex")}`, captureContent: true })).id;
    await writeStoredResponse(dataPlane, record({ id: "resp_doomed", projectId: doomed }));
    await deleteProject(db, organizationId, doomed);
    expect(await readStoredResponse(dataPlane, { projectId: doomed, id: "resp_doomed", now })).toBeNull();
  });
});
