import { generateKeyPairSync, randomUUID } from "node:crypto";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import Provider, { type Configuration } from "oidc-provider";

/** A test account: its login on the provider's page is its key (the email here). */
export interface ProviderAccount {
  email: string;
  name: string;
  groups: string[];
}

/**
 * Starts oidc-provider (a certified OpenID provider) on 127.0.0.1 with its own development
 * login page (any password), consent given for the one client, and a `groups` claim.
 */
export async function startLocalOpenIdProvider(options: {
  client: { client_id: string; client_secret: string; redirect_uri: string };
  accounts: Record<string, ProviderAccount>;
}): Promise<{ issuer: string; close(): Promise<void> }> {
  const server: Server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", () => resolve()));
  const issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const { privateKey } = generateKeyPairSync("ec", { namedCurve: "P-256" });
  const configuration: Configuration = {
    clients: [
      {
        client_id: options.client.client_id,
        client_secret: options.client.client_secret,
        redirect_uris: [options.client.redirect_uri],
        id_token_signed_response_alg: "ES256",
      },
    ],
    jwks: { keys: [{ ...(privateKey.export({ format: "jwk" }) as Record<string, string>), kid: randomUUID(), alg: "ES256", use: "sig" }] as never },
    cookies: { keys: ["local-openid-provider-browser-test"] },
    claims: { openid: ["sub"], email: ["email", "email_verified"], profile: ["name"], groups: ["groups"] },
    scopes: ["openid", "email", "profile", "groups"],
    conformIdTokenClaims: false,
    pkce: { required: () => true },
    features: { devInteractions: { enabled: true } },
    async findAccount(_context, id) {
      const account = options.accounts[id];
      if (account === undefined) return undefined;
      return { accountId: id, async claims() { return { sub: id, email_verified: true, ...account }; } };
    },
    async loadExistingGrant(context) {
      const oidc = context.oidc;
      const grantId = oidc.result?.consent?.grantId ?? oidc.session!.grantIdFor(oidc.client!.clientId);
      if (grantId) {
        const existing = await oidc.provider.Grant.find(grantId);
        if (existing) return existing;
      }
      const grant = new oidc.provider.Grant({ clientId: oidc.client!.clientId, accountId: oidc.session!.accountId! });
      grant.addOIDCScope("openid email profile groups");
      grant.addOIDCClaims(["email", "email_verified", "name", "groups"]);
      await grant.save();
      return grant;
    },
  };
  const provider = new Provider(issuer, configuration);
  server.on("request", provider.callback());
  return {
    issuer,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
