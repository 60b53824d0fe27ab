import { getSsoConfiguration } from "@gateway/db";
import { GatewayError } from "@gateway/errors";
import type { DashboardServices } from "../services/dashboard-services.js";

/** What the single sign-on of an organization is ready for. */
export interface SingleSignOnReadiness {
  /** An identity provider is configured for the organization. */
  configured: boolean;
  /** An owner of the organization has signed in through it (so someone can still manage it). */
  ownerSignedIn: boolean;
}

/**
 * The readiness of an organization's single sign-on: configured means a configuration exists
 * and is switched on; an owner signed in means someone whose role was owner completed a sign-in
 * through the provider as it is configured now (changing the issuer or client id resets it).
 */
export async function readSingleSignOnReadiness(services: Pick<DashboardServices, "database">, organizationId: string): Promise<SingleSignOnReadiness> {
  const configuration = await getSsoConfiguration(services.database, organizationId);
  if (configuration === null || !configuration.enabled) return { configured: false, ownerSignedIn: false };
  return { configured: true, ownerSignedIn: configuration.ownerSignedInAt !== null };
}

/**
 * Refuses to require single sign-on where it would lock everyone out: 400 `invalid_request`
 * (param `authentication_required`) unless single sign-on is configured for the organization
 * and an owner has signed in through it. Password login is refused for an organization that
 * requires single sign-on (403 `sso_required`), so requiring it without a working sign-on would
 * leave nobody able to sign in, owners included.
 */
export async function assertSsoCanBeRequired(services: Pick<DashboardServices, "database">, organizationId: string): Promise<void> {
  const readiness = await readSingleSignOnReadiness(services, organizationId);
  if (!readiness.configured) {
    throw new GatewayError("invalid_request", {
      message:
        "Single sign-on is not configured for this organization: requiring it would refuse every password sign-in, owners included. " +
        "Configure single sign-on and sign in through it as an owner first.",
      param: "authentication_required",
    });
  }
  if (!readiness.ownerSignedIn) {
    throw new GatewayError("invalid_request", {
      message: "No owner has signed in through single sign-on yet: sign in through it as an owner before requiring it.",
      param: "authentication_required",
    });
  }
}
