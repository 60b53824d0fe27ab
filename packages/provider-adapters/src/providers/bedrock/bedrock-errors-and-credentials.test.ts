import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { bedrockConnection, bedrockTarget, bedrockTestKeys } from "../../../test/bedrock-connection.js";
import { chatCompletions } from "../../../test/adapter-calls.js";
import { callContext, rejectionOf } from "../../../test/fake-upstream.js";
import { type BedrockMock, startBedrockMock } from "../../../test/mocks/bedrock-mock.js";
import { createHttpTransport, type HttpTransport } from "../../http-transport.js";
import { createProviderAdapter } from "../provider-registry.js";
import { awsCredentialsFromEnvironment } from "./aws-credentials.js";
import { createBedrockCredentialSource } from "./bedrock-credential-source.js";
import { bedrockSettingsSchema } from "./bedrock-settings.js";

let mock: BedrockMock;
let transport: HttpTransport;
const secret = bedrockTestKeys.AKIAGATEWAYTEST00001.secretAccessKey;
const hi = { model: "m", messages: [{ role: "user", content: "Hi" }] };

beforeAll(async () => {
  mock = await startBedrockMock({ keys: bedrockTestKeys, region: "us-west-2" });
  transport = createHttpTransport();
});
afterAll(async () => {
  await transport?.close();
  await mock?.close();
});
beforeEach(() => mock.use(null));

function call(connection = bedrockConnection(mock)) {
  return chatCompletions(createProviderAdapter(connection, { transport }), hi, bedrockTarget(connection), callContext());
}

describe("Bedrock errors", () => {
  it("ThrottlingException -> 429 upstream_rate_limited with the retry hint", async () => {
    mock.use(() => ({ json: { message: "Too many requests, please wait before trying again." }, status: 429, errorType: "ThrottlingException", headers: { "retry-after": "7" } }));
    expect(await rejectionOf(call())).toMatchObject({ code: "upstream_rate_limited", status: 429, retryAfter: "7", retryable: true, message: "Too many requests, please wait before trying again." });
  });

  it("ValidationException -> 400 invalid_request with Bedrock's message", async () => {
    mock.use(() => ({ json: { message: "The model returned the following errors: max_tokens: 900000 > 64000" }, status: 400, errorType: "ValidationException" }));
    expect(await rejectionOf(call())).toMatchObject({ code: "invalid_request", status: 400, retryable: false, message: expect.stringContaining("max_tokens") });
  });

  it("AccessDeniedException -> an upstream error naming 403, Bedrock's text (which may quote the account) not shown", async () => {
    mock.use(() => ({ json: { message: "User: arn:aws:iam::123456789012:user/gw is not authorized to perform: bedrock:InvokeModel" }, status: 403, errorType: "AccessDeniedException" }));
    const error = await rejectionOf(call());
    expect(error).toMatchObject({ code: "upstream_error", status: 502, retryable: true, details: { upstreamStatus: 403 } });
    expect(error.message).not.toContain("123456789012");
  });

  it("ModelNotReadyException and ServiceUnavailableException -> 503, retryable", async () => {
    for (const [errorType, status] of [["ModelNotReadyException", 429], ["ServiceUnavailableException", 503]] as const) {
      mock.use(() => ({ json: { message: "Model is not ready for inference." }, status, errorType }));
      expect(await rejectionOf(call())).toMatchObject({ code: "service_unavailable", status: 503, retryable: true });
    }
  });

  it("never shows the keys, session token or signature an upstream message echoes", async () => {
    const connection = bedrockConnection(mock, { credential: JSON.stringify({ accessKeyId: "AKIAGATEWAYTEST00001", secretAccessKey: secret }) });
    mock.use((request) => ({
      json: { message: `Bad request ${String(request.headers.authorization)} key ${secret} id AKIAGATEWAYTEST00001` },
      status: 400,
      errorType: "ValidationException",
    }));
    const error = await rejectionOf(call(connection));
    expect(error.code).toBe("invalid_request");
    expect(error.message).not.toContain(secret);
    expect(error.message).not.toContain("AKIAGATEWAYTEST00001");
    expect(error.message).not.toMatch(/Signature=[0-9a-f]{16}/);
  });

  it("a request signed with the wrong secret is refused by the mock and reported as a credential problem", async () => {
    const connection = bedrockConnection(mock, { credential: JSON.stringify({ accessKeyId: "AKIAGATEWAYTEST00001", secretAccessKey: "wrong-secret-0123456789" }) });
    const error = await rejectionOf(call(connection));
    expect(mock.refused.at(-1)).toBe("InvalidSignatureException");
    expect(error).toMatchObject({ code: "upstream_error", details: { upstreamStatus: 403 } });
    expect(error.message).not.toContain("wrong-secret-0123456789");
  });

  it("a credential that is not the keys' JSON fails with 502 without quoting it", async () => {
    const error = await rejectionOf(call(bedrockConnection(mock, { credential: "AKIA-not-json-secret-value" })));
    expect(error).toMatchObject({ code: "upstream_error", retryable: false });
    expect(error.message).not.toContain("not-json-secret");
  });
});

describe("Bedrock credentials", () => {
  it("reads the standard AWS environment variables, with a session token", () => {
    expect(awsCredentialsFromEnvironment({ AWS_ACCESS_KEY_ID: "AKIAENV", AWS_SECRET_ACCESS_KEY: "env-secret", AWS_SESSION_TOKEN: "env-token" })).toEqual({ accessKeyId: "AKIAENV", secretAccessKey: "env-secret", sessionToken: "env-token" });
    expect(awsCredentialsFromEnvironment({ AWS_ACCESS_KEY_ID: "AKIAENV" })).toBeNull();
  });

  it("a connection without a credential signs with the environment's keys", async () => {
    const connection = bedrockConnection(mock, { credential: null });
    const source = createBedrockCredentialSource({
      connection,
      settings: bedrockSettingsSchema.parse(connection),
      sts: { transport },
      environment: { AWS_ACCESS_KEY_ID: "AKIAGATEWAYTEST00001", AWS_SECRET_ACCESS_KEY: secret },
    });
    expect(await source(callContext())).toEqual({ accessKeyId: "AKIAGATEWAYTEST00001", secretAccessKey: secret });
    const missing = createBedrockCredentialSource({ connection, settings: bedrockSettingsSchema.parse(connection), sts: { transport }, environment: {} });
    expect(await rejectionOf(missing(callContext()))).toMatchObject({ code: "upstream_error", message: expect.stringContaining("no AWS credentials") });
  });

  it("assumes settings.roleArn through STS, signs with the temporary keys and session token, and caches them", async () => {
    const connection = bedrockConnection(mock, { settings: { region: mock.region, roleArn: "arn:aws:iam::123456789012:role/bedrock", roleSessionName: "gw-test", stsEndpoint: mock.url } });
    const adapter = createProviderAdapter(connection, { transport });
    const before = mock.assumeRoleCalls();
    await chatCompletions(adapter, hi, bedrockTarget(connection), callContext());
    await chatCompletions(adapter, hi, bedrockTarget(connection), callContext());
    expect(mock.assumeRoleCalls()).toBe(before + 1);
    const [first, second] = mock.requests.slice(-2);
    expect(first!.headers["x-amz-security-token"]).toMatch(/^FwoGZXIvYXdzE/);
    expect(String(first!.headers.authorization)).toMatch(/Credential=ASIA/);
    // One AssumeRole for both calls: the same temporary keys signed them.
    expect(second!.headers["x-amz-security-token"]).toBe(first!.headers["x-amz-security-token"]);
  });

  it("renews assumed-role keys ahead of their expiry", async () => {
    const connection = bedrockConnection(mock, { settings: { region: mock.region, roleArn: "arn:aws:iam::123456789012:role/bedrock", stsEndpoint: mock.url } });
    let now = Date.now();
    const source = createBedrockCredentialSource({ connection, settings: bedrockSettingsSchema.parse(connection), sts: { transport }, now: () => now });
    const first = await source(callContext());
    expect(await source(callContext())).toBe(first);
    now += 56 * 60_000; // within five minutes of the one-hour expiry
    const renewed = await source(callContext());
    expect(renewed.accessKeyId).not.toBe(first.accessKeyId);
  });

  it("a role STS refuses fails with 502 naming STS's error code", async () => {
    const connection = bedrockConnection(mock, {
      credential: JSON.stringify({ accessKeyId: "AKIAGATEWAYTEST00001", secretAccessKey: "wrong-secret-0123456789" }),
      settings: { region: mock.region, roleArn: "arn:aws:iam::123456789012:role/bedrock", stsEndpoint: mock.url },
    });
    const error = await rejectionOf(call(connection));
    expect(error).toMatchObject({ code: "upstream_error", details: { provider: "bedrock-test", upstreamStatus: 403 } });
    expect(error.message).toContain("InvalidSignatureException");
  });
});
