import { generateKeyPairSync, randomUUID } from "node:crypto";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import Provider, { type Configuration } from "oidc-provider";

/** A test account of the provider: its login is its id. */
export interface ProviderAccount {
  email: string;
  name?: string;
  email_verified?: boolean;
  groups?: string[];
}

/** A client registered at the provider. */
export interface ProviderClient {
  client_id: string;
  client_secret?: string;
  redirect_uris: string[];
  token_endpoint_auth_method?: "client_secret_basic" | "client_secret_post" | "private_key_jwt" | "none";
  jwks?: { keys: Record<string, unknown>[] };
}

/** A private signing key of the provider (JWK with `kid`). */
export type SigningKey = Record<string, unknown> & { kid: string };

/** A running oidc-provider on 127.0.0.1 and how to change it. */
export interface LocalOpenIdProvider {
  issuer: string;
  accounts: Map<string, ProviderAccount>;
  /** The key the provider signs with now (the first of its keys). */
  signingKey(): SigningKey;
  /** Replaces the provider's keys (key rotation): the first one signs from now on. */
  rotateKeys(keys: SigningKey[]): void;
  /** Stops answering (the provider is down) until `resume`. */
  stop(): Promise<void>;
  resume(): Promise<void>;
  close(): Promise<void>;
}

/** A new EC P-256 signing key. */
export function newSigningKey(): SigningKey {
  const { privateKey } = generateKeyPairSync("ec", { namedCurve: "P-256" });
  return { ...(privateKey.export({ format: "jwk" }) as Record<string, unknown>), kid: randomUUID(), alg: "ES256", use: "sig" };
}

/**
 * Starts oidc-provider (a certified OpenID provider) on 127.0.0.1 with its own development login
 * page (any password; the login is the account id), consent granted for first-party clients, the
 * `groups` scope and claim, and PKCE required. Claims are put into the ID token too.
 */
export async function startLocalOpenIdProvider(options: { clients: ProviderClient[]; accounts: Record<string, ProviderAccount> }): Promise<LocalOpenIdProvider> {
  const accounts = new Map(Object.entries(options.accounts));
  let keys: SigningKey[] = [newSigningKey()];
  let handler: ((request: IncomingMessage, response: ServerResponse) => void) | null = null;
  const server: Server = createServer((request, response) => {
    if (handler === null) {
      response.statusCode = 503;
      response.end();
      return;
    }
    handler(request, response);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", () => resolve()));
  const port = (server.address() as AddressInfo).port;
  const issuer = `http://127.0.0.1:${port}`;

  const build = () => {
    const configuration: Configuration = {
      clients: options.clients.map((client) => ({ id_token_signed_response_alg: "ES256", ...client })) as unknown as Configuration["clients"],
      jwks: { keys: keys as never },
      cookies: { keys: ["local-openid-provider-test-cookie-key"] },
      claims: { openid: ["sub"], email: ["email", "email_verified"], profile: ["name"], groups: ["groups"] },
      scopes: ["openid", "email", "profile", "groups", "offline_access"],
      conformIdTokenClaims: false,
      pkce: { required: () => true },
      features: { devInteractions: { enabled: true } },
      async findAccount(_context, id) {
        const account = accounts.get(id);
        if (account === undefined) return undefined;
        return { accountId: id, async claims() { return { sub: id, email_verified: true, ...account }; } };
      },
      // First-party client: consent is given, the development login page is the only interaction.
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
    // Quiet: an expected refusal in a test is not worth a stack trace.
    provider.on("server_error", () => undefined);
    return provider.callback();
  };
  handler = build();

  return {
    issuer,
    accounts,
    signingKey: () => keys[0]!,
    rotateKeys(next) {
      keys = next;
      handler = build();
    },
    async stop() {
      handler = null;
      server.closeAllConnections();
    },
    async resume() {
      handler = build();
    },
    async close() {
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      });
    },
  };
}

/** Cookies of one site, as a browser keeps them (path and expiry aside). */
class CookieJar {
  private readonly values = new Map<string, string>();
  store(response: Response): void {
    for (const header of response.headers.getSetCookie()) {
      const [pair] = header.split(";");
      const separator = pair!.indexOf("=");
      const name = pair!.slice(0, separator).trim();
      const value = pair!.slice(separator + 1).trim();
      if (value === "" || /max-age=0/i.test(header)) this.values.delete(name);
      else this.values.set(name, value);
    }
  }
  header(): string {
    return [...this.values].map(([name, value]) => `${name}=${value}`).join("; ");
  }
}

/**
 * Walks the provider's own pages as a browser would: the authorization URL, the login form
 * (submitted with `login` as the account id), and the redirects until the provider sends the
 * browser back to the client. Answers that last location (the callback URL with code and state).
 */
export async function signInAtProvider(authorizationUrl: string, login: string): Promise<URL> {
  const jar = new CookieJar();
  let url = new URL(authorizationUrl);
  const origin = url.origin;
  let response = await fetch(url, { redirect: "manual", headers: { cookie: jar.header() } });
  for (let step = 0; step < 10; step += 1) {
    jar.store(response);
    if (response.status >= 300 && response.status < 400) {
      const next = new URL(response.headers.get("location")!, url);
      if (next.origin !== origin) return next;
      url = next;
      response = await fetch(url, { redirect: "manual", headers: { cookie: jar.header() } });
      continue;
    }
    const html = await response.text();
    const action = /<form[^>]*action="([^"]+)"/.exec(html)?.[1];
    if (response.status !== 200 || action === undefined || !html.includes('name="login"')) {
      throw new Error(`the provider answered ${response.status} without its login form: ${html.replace(/<style>[\s\S]*<\/style>/, "").replace(/<[^>]+>/g, " ").replace(/\s+/g, " ").slice(0, 400)}`);
    }
    url = new URL(action.replace(/&amp;/g, "&"), url);
    response = await fetch(url, {
      method: "POST",
      redirect: "manual",
      headers: { cookie: jar.header(), "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ prompt: "login", login, password: "any password" }).toString(),
    });
  }
  throw new Error("the provider did not send the browser back within 10 steps");
}
