import { type KeyObject, generateKeyPairSync } from "node:crypto";

/** A service account made for a test: its key pair, and its JSON key (the connection's credential) for a token endpoint. */
export interface TestServiceAccount {
  clientEmail: string;
  privateKeyId: string;
  privateKeyPem: string;
  /** What the mock token endpoint verifies assertions with. */
  publicKey: KeyObject;
  /** The JSON key, as Google Cloud hands it out, its `token_uri` the given endpoint. */
  credential(tokenUri: string): string;
}

/** Generates an RSA key pair and the service account of it. */
export function createTestServiceAccount(clientEmail = "gateway-test@test-project.iam.gserviceaccount.com"): TestServiceAccount {
  const { privateKey, publicKey } = generateKeyPairSync("rsa", { modulusLength: 2048 });
  const privateKeyPem = privateKey.export({ type: "pkcs8", format: "pem" }).toString();
  const privateKeyId = "0123456789abcdef0123456789abcdef01234567";
  return {
    clientEmail,
    privateKeyId,
    privateKeyPem,
    publicKey,
    credential: (tokenUri) =>
      JSON.stringify({
        type: "service_account",
        project_id: "test-project",
        private_key_id: privateKeyId,
        private_key: privateKeyPem,
        client_email: clientEmail,
        client_id: "100000000000000000001",
        auth_uri: "https://accounts.google.com/o/oauth2/auth",
        token_uri: tokenUri,
        auth_provider_x509_cert_url: "https://www.googleapis.com/oauth2/v1/certs",
        universe_domain: "googleapis.com",
      }),
  };
}
