import {
  acceptPendingInvitationByEmail,
  createMembership,
  createUser,
  deleteUser,
  findSsoIdentityUser,
  findUserByEmail,
  getMembership,
  getUser,
  markSsoOwnerSignedIn,
  syncSsoGroupMemberships,
  updateMembershipRole,
  updateUser,
  upsertSsoIdentity,
  type SsoConfigurationRecord,
} from "@gateway/db";
import { GatewayError } from "@gateway/errors";
import type { Request } from "express";
import type { DashboardServices } from "../../services/dashboard-services.js";
import { recordAuditEvent } from "../../services/record-audit-event.js";
import type { MappedSsoClaims } from "./map-sso-claims.js";

/** Input of {@link completeSsoSignIn}. */
export interface CompleteSsoSignInInput {
  configuration: SsoConfigurationRecord;
  issuer: string;
  mapped: MappedSsoClaims;
  context: { request: Request; requestId: string };
}

/** Who signed in, and in which role. */
export interface CompletedSsoSignIn {
  userId: string;
  role: string;
  provisioned: boolean;
}

/**
 * Turns a validated single sign-on into an organization member: the account linked to the
 * provider's subject, else the account of the email (linked now). A person who is not a member
 * yet joins through a pending invitation, or by just-in-time provisioning when it is on (else
 * 403 `sso_not_allowed`). Then the claims are applied, at every sign-in: the role follows the
 * groups when role mappings exist, and the teams and projects the mappings manage follow the
 * groups; each change is audited. An owner's sign-in marks single sign-on as ready to be required.
 */
export async function completeSsoSignIn(services: DashboardServices, input: CompleteSsoSignInInput): Promise<CompletedSsoSignIn> {
  const { configuration, mapped, context } = input;
  const organizationId = configuration.organizationId;
  const now = services.now();
  const linkedUserId = await findSsoIdentityUser(services.database, { organizationId, issuer: input.issuer, subject: mapped.subject });
  let user = linkedUserId === null ? await findUserByEmail(services.database, mapped.email) : await getUser(services.database, linkedUserId);
  if (user !== null && user.disabledAt !== null) throw new GatewayError("sso_not_allowed", { message: "This account is disabled." });
  let membership = user === null ? null : await getMembership(services.database, organizationId, user.id);
  let provisioned = false;
  if (membership === null) {
    const created = user === null;
    user ??= await createUser(services.database, { email: mapped.email, name: mapped.name, passwordHash: null });
    const invited = await acceptPendingInvitationByEmail(services.database, { organizationId, email: mapped.email, userId: user.id, now });
    if (!invited) {
      if (!configuration.jitProvisioning) {
        // An account made for this attempt alone is not left behind.
        if (created) await deleteUser(services.database, user.id);
        throw new GatewayError("sso_not_allowed", {
          message: "This organization admits new members through an invitation only: ask an administrator to invite this email address.",
        });
      }
      await createMembership(services.database, { organizationId, userId: user.id, role: mapped.role });
      provisioned = true;
      await recordAuditEvent(services, context, {
        organizationId,
        actorId: user.id,
        action: "member.provisioned_by_sso",
        targetType: "user",
        targetId: user.id,
        after: { email: mapped.email, role: mapped.role, groups: mapped.groups },
      });
    }
    membership = await getMembership(services.database, organizationId, user.id);
    if (membership === null) throw new GatewayError("sso_not_allowed", { message: "The invitation could not be accepted; ask for a new one." });
  }
  const userId = user!.id;
  let role = membership.role;
  const wantedRole = configuration.roleMappings.length > 0 ? mapped.role : null;
  if (wantedRole !== null && wantedRole !== role) {
    // Groups that would leave the organization without an owner do not demote its last owner:
    // the role stays (an owner fixes the groups or names another owner) and the skip is audited.
    const keptAsLastOwner = await updateRoleUnlessLastOwner(services, organizationId, userId, wantedRole);
    await recordAuditEvent(services, context, {
      organizationId,
      actorId: userId,
      action: keptAsLastOwner ? "member.role_sync_skipped_last_owner" : "member.role_synced_from_sso",
      targetType: "user",
      targetId: userId,
      before: { role },
      after: keptAsLastOwner ? { role, wanted_role: wantedRole, groups: mapped.groups } : { role: wantedRole, groups: mapped.groups },
    });
    if (!keptAsLastOwner) role = wantedRole;
  }
  const managedTeamIds = [...new Set(configuration.teamMappings.map((mapping) => mapping.team_id))];
  const managedProjectIds = [...new Set(configuration.projectMappings.map((mapping) => mapping.project_id))];
  if (managedTeamIds.length > 0 || managedProjectIds.length > 0) {
    const sync = await syncSsoGroupMemberships(services.database, {
      organizationId,
      userId,
      managedTeamIds,
      grantedTeamIds: mapped.teamIds,
      managedProjectIds,
      grantedProjectIds: mapped.projectIds,
    });
    if (sync.teamIdsBefore.join() !== sync.teamIdsAfter.join() || sync.projectIdsBefore.join() !== sync.projectIdsAfter.join()) {
      await recordAuditEvent(services, context, {
        organizationId,
        actorId: userId,
        action: "member.groups_synced_from_sso",
        targetType: "user",
        targetId: userId,
        before: { team_ids: sync.teamIdsBefore, project_ids: sync.projectIdsBefore },
        after: { team_ids: sync.teamIdsAfter, project_ids: sync.projectIdsAfter, groups: mapped.groups },
      });
    }
  }
  await upsertSsoIdentity(services.database, { organizationId, issuer: input.issuer, subject: mapped.subject, userId, email: mapped.email, at: now });
  await updateUser(services.database, userId, { lastLoginAt: now });
  if (role === "owner") await markSsoOwnerSignedIn(services.database, organizationId, now);
  return { userId, role, provisioned };
}

/** Applies a role from the claims; answers true when it was kept because the member is the organization's last owner. */
async function updateRoleUnlessLastOwner(services: DashboardServices, organizationId: string, userId: string, role: string): Promise<boolean> {
  try {
    await updateMembershipRole(services.database, { organizationId, userId, role });
    return false;
  } catch (error) {
    if (error instanceof GatewayError && error.code === "conflict") return true;
    throw error;
  }
}
