import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { decodeMailText, startLocalSmtpServer } from "./support/local-smtp-server.js";
import { startTestDashboard, type TestDashboard } from "./support/test-dashboard.js";

function tokenFrom(raw: string): string {
  const match = /token=(inv_[A-Za-z0-9_%-]+)/.exec(decodeMailText(raw));
  if (!match) throw new Error("no token in the email");
  return decodeURIComponent(match[1]!);
}

describe("invitations over a real SMTP server", () => {
  let smtp: Awaited<ReturnType<typeof startLocalSmtpServer>>;
  let harness: TestDashboard;
  let organizationId: string;
  let owner: string;

  beforeAll(async () => {
    smtp = await startLocalSmtpServer();
    harness = await startTestDashboard({ settings: { smtpUrl: smtp.url, emailFrom: "Gateway <gateway@example.com>" } });
    organizationId = (await harness.createOrganization({ name: "Acme" })).id;
    const member = await harness.createMember({ organizationId, role: "owner" });
    owner = await harness.login(member.email, member.password);
  });
  afterAll(async () => {
    await harness.close();
    await smtp.close();
  });

  const call = (method: string, path: string, body?: unknown) => harness.request(method, path, { cookie: owner, body });

  it("sends the invitation email and records delivery; accepting creates the account", async () => {
    const created = await call("POST", "/api/invitations", { email: "Grace@Example.com", role: "member" });
    expect(created.status, created.text).toBe(201);
    expect(created.body).toMatchObject({ email: "Grace@Example.com", role: "member", project_ids: [], delivery_status: "sent", delivery_failure: null, status: "pending", object: "organization.invitation" });
    expect(Date.parse(created.body.email_sent_at)).not.toBeNaN();
    expect(Date.parse(created.body.expires_at)).toBeGreaterThan(Date.now() + 6 * 86_400_000);
    const mail = smtp.received.at(-1)!;
    expect(mail.to.map((address) => address.toLowerCase())).toEqual(["grace@example.com"]);
    expect(mail.from).toBe("gateway@example.com");
    expect(mail.raw).toMatch(/Subject: You are invited to Acme/);
    const token = tokenFrom(mail.raw);
    // The inviter's answer carries the same link as the email.
    expect(created.body.accept_url).toBe(`${harness.dashboard.services.settings.publicUrl}/invitations/accept?token=${encodeURIComponent(token)}`);

    const weak = await harness.request("POST", "/v1/auth/invitations/accept", { body: { token, name: "Grace", password: "short" }, origin: null });
    expect(weak.status).toBe(400);
    const accepted = await harness.request("POST", "/v1/auth/invitations/accept", { body: { token, name: "Grace", password: "a long passphrase" }, origin: null });
    expect(accepted.status, accepted.text).toBe(200);
    expect(accepted.body).toMatchObject({ account_created: true, organization: { id: organizationId }, invitation: { status: "accepted" }, object: "organization.invitation.acceptance" });
    const cookie = await harness.login("grace@example.com", "a long passphrase");
    const session = await harness.request("GET", "/v1/auth/session", { cookie });
    expect(session.body.user.role).toBe("member");
    // Used tokens do not work twice; accepted invitations cannot be resent.
    expect((await harness.request("POST", "/v1/auth/invitations/accept", { body: { token, name: "Grace", password: "a long passphrase" }, origin: null })).status).toBe(404);
    const resend = await call("POST", `/api/invitations/${created.body.id}/resend`);
    expect(resend.status).toBe(409);
    expect(resend.body.error.code).toBe("conflict");
  });

  it("resend renews the token and expiry, and is rate limited", async () => {
    const created = await call("POST", "/api/invitations", { email: "linus@example.com", role: "viewer" });
    const firstToken = tokenFrom(smtp.received.at(-1)!.raw);
    await harness.database.prisma.invitation.update({ where: { id: created.body.id }, data: { expiresAt: new Date(Date.now() - 1000) } });
    const expired = await call("GET", `/api/invitations/${created.body.id}`);
    expect(expired.body).toMatchObject({ status: "expired", delivery_status: "expired" });
    const listedExpired = await call("GET", "/api/invitations?delivery_status=expired");
    expect(listedExpired.body.data.map((item: { id: string }) => item.id)).toContain(created.body.id);

    const resent = await call("POST", `/api/invitations/${created.body.id}/resend`);
    expect(resent.status).toBe(200);
    expect(resent.body).toMatchObject({ id: created.body.id, status: "pending", delivery_status: "sent", object: "organization.invitation" });
    expect(Date.parse(resent.body.expires_at)).toBeGreaterThan(Date.now() + 6 * 86_400_000);
    const secondToken = tokenFrom(smtp.received.at(-1)!.raw);
    expect(secondToken).not.toBe(firstToken);
    expect((await harness.request("POST", "/v1/auth/invitations/accept", { body: { token: firstToken, name: "L", password: "a long passphrase" }, origin: null })).status).toBe(404);

    expect((await call("POST", `/api/invitations/${created.body.id}/resend`)).status).toBe(200);
    expect((await call("POST", `/api/invitations/${created.body.id}/resend`)).status).toBe(200);
    const limited = await call("POST", `/api/invitations/${created.body.id}/resend`);
    expect(limited.status).toBe(429);
    expect(limited.body.error.code).toBe("too_many_attempts");
    expect(Number(limited.headers.get("retry-after"))).toBeGreaterThan(0);
  });

  it("adds an existing account to the organization when it proves its password", async () => {
    const other = await harness.createOrganization();
    const existing = await harness.createMember({ organizationId: other.id, role: "member" });
    const project = await call("POST", "/api/projects", { name: "invited project" });
    await call("POST", "/api/invitations", { email: existing.email, role: "admin", project_ids: [project.body.id] });
    const token = tokenFrom(smtp.received.at(-1)!.raw);
    const wrong = await harness.request("POST", "/v1/auth/invitations/accept", { body: { token, password: "not-the-password" }, origin: null });
    expect(wrong.status).toBe(401);
    const accepted = await harness.request("POST", "/v1/auth/invitations/accept", { body: { token, password: existing.password }, origin: null });
    expect(accepted.status).toBe(200);
    expect(accepted.body.account_created).toBe(false);
    const cookie = await harness.login(existing.email, existing.password, organizationId);
    const session = await harness.request("GET", "/v1/auth/session", { cookie });
    expect(session.body.user.role).toBe("admin");
    expect(session.body.organizations).toHaveLength(2);
  });

  it("lists with filters and cursor pagination, and revokes", async () => {
    for (const email of ["p1@example.com", "p2@example.com", "p3@example.com"]) await call("POST", "/api/invitations", { email, role: "viewer" });
    const duplicate = await call("POST", "/api/invitations", { email: "P1@example.com", role: "viewer" });
    expect(duplicate.status).toBe(409);
    const first = await call("GET", "/api/invitations?status=pending&limit=2");
    expect(first.body).toMatchObject({ object: "list", has_more: true });
    expect(first.body.data).toHaveLength(2);
    const second = await call("GET", `/api/invitations?status=pending&limit=2&cursor=${first.body.next_cursor}`);
    const ids = [...first.body.data, ...second.body.data].map((item: { id: string }) => item.id);
    expect(new Set(ids).size).toBe(ids.length);
    expect(second.body.data.every((item: { status: string }) => item.status === "pending")).toBe(true);
    const byEmail = await call("GET", "/api/invitations?email=P2@EXAMPLE.com");
    expect(byEmail.body.data).toHaveLength(1);
    const revoked = await call("DELETE", `/api/invitations/${byEmail.body.data[0].id}`);
    expect(revoked.body).toMatchObject({ status: "revoked" });
    expect((await call("GET", "/api/invitations?status=revoked")).body.data.map((item: { id: string }) => item.id)).toContain(byEmail.body.data[0].id);
    expect((await call("POST", `/api/invitations/${byEmail.body.data[0].id}/resend`)).status).toBe(409);
  });
});

describe("invitation delivery failures and the outbox", () => {
  it("records delivery_status failed when the SMTP server refuses", async () => {
    const smtp = await startLocalSmtpServer({ refuseRecipients: true });
    const harness = await startTestDashboard({ settings: { smtpUrl: smtp.url } });
    try {
      const organizationId = (await harness.createOrganization()).id;
      const owner = await harness.createMember({ organizationId, role: "owner" });
      const cookie = await harness.login(owner.email, owner.password);
      const created = await harness.request("POST", "/api/invitations", { cookie, body: { email: "bounce@example.com" } });
      expect(created.status).toBe(201);
      expect(created.body).toMatchObject({ delivery_status: "failed", delivery_failure: "recipient_rejected", email_sent_at: null, status: "pending" });
      expect(smtp.received).toHaveLength(0);
      const failed = await harness.request("GET", "/api/invitations?delivery_status=failed", { cookie });
      expect(failed.body.data).toHaveLength(1);
    } finally {
      await harness.close();
      await smtp.close();
    }
  });

  it("says sent only once the SMTP server accepted the message; a resend updates the status", async () => {
    const smtp = await startLocalSmtpServer({ refuseMessages: true });
    const harness = await startTestDashboard({ settings: { smtpUrl: smtp.url } });
    try {
      const organizationId = (await harness.createOrganization()).id;
      const owner = await harness.createMember({ organizationId, role: "owner" });
      const cookie = await harness.login(owner.email, owner.password);
      // The server took the recipient, then refused the message after its data: not sent.
      const created = await harness.request("POST", "/api/invitations", { cookie, body: { email: "later@example.com" } });
      expect(created.status).toBe(201);
      expect(created.body).toMatchObject({ delivery_status: "failed", delivery_failure: "smtp_failed", email_sent_at: null });
      expect(smtp.received).toHaveLength(0);
      smtp.refuse(null);
      const resent = await harness.request("POST", `/api/invitations/${created.body.id}/resend`, { cookie });
      expect(resent.status).toBe(200);
      expect(resent.body).toMatchObject({ delivery_status: "sent", delivery_failure: null });
      expect(Date.parse(resent.body.email_sent_at)).not.toBeNaN();
      expect(smtp.received).toHaveLength(1);
      expect(decodeMailText(smtp.received[0]!.raw)).toContain(resent.body.accept_url);
      // And back: a failed resend keeps the time of the last accepted email.
      smtp.refuse("recipients");
      const refused = await harness.request("POST", `/api/invitations/${created.body.id}/resend`, { cookie });
      expect(refused.body).toMatchObject({ delivery_status: "failed", delivery_failure: "recipient_rejected", email_sent_at: resent.body.email_sent_at });
      expect((await harness.request("GET", `/api/invitations/${created.body.id}`, { cookie })).body).toMatchObject({ delivery_status: "failed", delivery_failure: "recipient_rejected" });
    } finally {
      await harness.close();
      await smtp.close();
    }
  });

  it("records delivery_status failed when no SMTP server listens", async () => {
    const smtp = await startLocalSmtpServer();
    const url = smtp.url;
    await smtp.close();
    const harness = await startTestDashboard({ settings: { smtpUrl: url } });
    try {
      const organizationId = (await harness.createOrganization()).id;
      const owner = await harness.createMember({ organizationId, role: "owner" });
      const cookie = await harness.login(owner.email, owner.password);
      const created = await harness.request("POST", "/api/invitations", { cookie, body: { email: "nobody-listens@example.com" } });
      expect(created.body).toMatchObject({ delivery_status: "failed", delivery_failure: "smtp_failed", email_sent_at: null });
    } finally {
      await harness.close();
    }
  });

  it("without SMTP_URL says the email was not sent (no_mail_transport) and gives owners and admins the link, never members or viewers", async () => {
    const harness = await startTestDashboard();
    try {
      const organizationId = (await harness.createOrganization()).id;
      const owner = await harness.createMember({ organizationId, role: "owner" });
      const cookie = await harness.login(owner.email, owner.password);
      const created = await harness.request("POST", "/api/invitations", { cookie, body: { email: "outbox@example.com" } });
      expect(created.status).toBe(201);
      expect(created.body).toMatchObject({ delivery_status: "failed", delivery_failure: "no_mail_transport", email_sent_at: null, status: "pending" });
      // The outbox still logs the message for local use; nobody received it.
      const mailer = harness.dashboard.services.mailer;
      expect(mailer.kind).toBe("outbox");
      expect(mailer.outbox.at(-1)).toMatchObject({ to: "outbox@example.com" });
      const link = new URL(created.body.accept_url);
      expect(link.pathname).toBe("/invitations/accept");
      const token = link.searchParams.get("token")!;
      expect(mailer.outbox.at(-1)!.text).toContain(created.body.accept_url);

      // An admin gets a new link by resending (the first one stops working).
      const admin = await harness.createMember({ organizationId, role: "admin" });
      const adminCookie = await harness.login(admin.email, admin.password);
      const resent = await harness.request("POST", `/api/invitations/${created.body.id}/resend`, { cookie: adminCookie });
      expect(resent.status).toBe(200);
      expect(resent.body).toMatchObject({ delivery_status: "failed", delivery_failure: "no_mail_transport" });
      expect(resent.body.accept_url).not.toBe(created.body.accept_url);

      // Members and viewers read invitations, never their links; they cannot resend to get one.
      for (const role of ["member", "viewer"] as const) {
        const person = await harness.createMember({ organizationId, role });
        const personCookie = await harness.login(person.email, person.password);
        const listed = await harness.request("GET", "/api/invitations", { cookie: personCookie });
        expect(listed.status).toBe(200);
        expect(listed.body.data).toHaveLength(1);
        expect(listed.text).not.toContain("accept_url");
        expect(listed.text).not.toContain("inv_");
        const one = await harness.request("GET", `/api/invitations/${created.body.id}`, { cookie: personCookie });
        expect(one.body).not.toHaveProperty("accept_url");
        const resend = await harness.request("POST", `/api/invitations/${created.body.id}/resend`, { cookie: personCookie });
        expect(resend.status).toBe(403);
        expect(resend.text).not.toContain("inv_");
      }
      // Nor does the audit trail hold it.
      const audit = await harness.request("GET", "/api/audit-events", { cookie });
      expect(audit.status).toBe(200);
      expect(audit.text).not.toContain("inv_");

      // The resent link accepts; the first one no longer does.
      const stale = await harness.request("POST", "/v1/auth/invitations/accept", { body: { token, name: "Out Box", password: "a long passphrase" }, origin: null });
      expect(stale.status).toBe(404);
      const fresh = new URL(resent.body.accept_url).searchParams.get("token")!;
      const accepted = await harness.request("POST", "/v1/auth/invitations/accept", { body: { token: fresh, name: "Out Box", password: "a long passphrase" }, origin: null });
      expect(accepted.status).toBe(200);
    } finally {
      await harness.close();
    }
  });
});
