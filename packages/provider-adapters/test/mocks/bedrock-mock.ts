import { EventStreamCodec } from "@smithy/eventstream-codec";
import type { MessageHeaders } from "@smithy/eventstream-codec";
import { fromUtf8, toUtf8 } from "@smithy/util-utf8";
import { randomUUID } from "node:crypto";
import { createServer } from "node:http";
import type { IncomingHttpHeaders, ServerResponse } from "node:http";
import type { AddressInfo, Socket } from "node:net";
import { type MockAwsKeys, verifySigV4 } from "./bedrock-mock-signature.js";
import { bedrockMockDefaultAnswer } from "./bedrock-mock-answers.js";

/** A request the mock received (signature already verified). */
export interface BedrockMockRequest {
  method: string;
  /** The path as received (`/model/anthropic.claude-...%3A0/converse`). */
  path: string;
  /** The decoded model id and operation of a runtime call. */
  modelId: string | null;
  operation: string | null;
  headers: IncomingHttpHeaders;
  body: any;
}

/** One ConverseStream event (`:event-type` and payload) or an in-stream exception. */
export type BedrockMockEvent = { event: string; payload: Record<string, unknown> } | { exception: string; message: string };

/** What the mock answers to one call: JSON (any status, an AWS error type), or a binary event stream. */
export type BedrockMockReply =
  | { json: unknown; status?: number; errorType?: string; headers?: Record<string, string> }
  | {
      events: BedrockMockEvent[];
      /** Bytes of the encoded stream sent before the socket is destroyed (a cut stream). */
      cutAtByte?: number;
      /** Flips a byte of the message at this index (its CRC no longer matches). */
      corruptMessage?: number;
    };

/** A scripted answer: the reply for a request, or undefined for the default behaviour. */
export type BedrockMockHandler = (request: BedrockMockRequest) => BedrockMockReply | undefined;

/** A local server speaking Bedrock runtime's (and STS AssumeRole's) wire format, verifying SigV4. */
export interface BedrockMock {
  url: string;
  region: string;
  requests: BedrockMockRequest[];
  /** Requests refused for their signature (error type per request). */
  refused: string[];
  /** How many STS AssumeRole calls the mock answered. */
  assumeRoleCalls(): number;
  /** Scripts the next answers (null: the default behaviour). */
  use(handler: BedrockMockHandler | null): void;
  /** Adds keys the mock accepts (as an assumed role's temporary keys are). */
  addKeys(accessKeyId: string, secretAccessKey: string, sessionToken?: string): void;
  close(): Promise<void>;
}

const codec = new EventStreamCodec(toUtf8, fromUtf8);

/**
 * Starts the mock on 127.0.0.1, port 0. Every request must carry a valid SigV4 signature
 * (service `bedrock`, or `sts` for `GET /?Action=AssumeRole`) by one of `keys`; otherwise it
 * answers 403 with the AWS error type, as Bedrock does. Runtime operations:
 * `POST /model/{modelId}/converse | converse-stream | invoke | count-tokens`; the control
 * plane's `GET /foundation-models`; STS `AssumeRole` (XML, temporary keys the mock then accepts).
 */
export async function startBedrockMock(options: { keys: Record<string, { secretAccessKey: string; sessionToken?: string }>; region?: string }): Promise<BedrockMock> {
  const region = options.region ?? "us-east-1";
  const keys: MockAwsKeys = new Map(Object.entries(options.keys));
  const requests: BedrockMockRequest[] = [];
  const refused: string[] = [];
  const sockets = new Set<Socket>();
  let handler: BedrockMockHandler | null = null;
  let assumedRoles = 0;

  const server = createServer(async (incoming, response) => {
    const chunks: Buffer[] = [];
    for await (const chunk of incoming) chunks.push(chunk as Buffer);
    const raw = Buffer.concat(chunks);
    const path = incoming.url ?? "/";
    const isSts = path.startsWith("/?") && new URL(path, "http://mock.invalid").searchParams.get("Action") === "AssumeRole";
    const problem = await verifySigV4({ method: incoming.method ?? "GET", rawPath: path, headers: incoming.headers, body: raw, keys, region, service: isSts ? "sts" : "bedrock" });
    if (problem !== null) {
      refused.push(problem.errorType);
      if (isSts) return sendStsError(response, problem.errorType, problem.message);
      return sendJsonReply(response, { json: { message: problem.message }, status: 403, errorType: problem.errorType });
    }
    if (isSts) {
      assumedRoles += 1;
      return assumeRole(response, keys);
    }
    const match = /^\/model\/([^/]+)\/(converse|converse-stream|invoke|count-tokens)$/.exec(path.split("?")[0]!);
    let body: unknown;
    try {
      body = raw.length === 0 ? undefined : JSON.parse(raw.toString("utf8"));
    } catch {
      return sendJsonReply(response, { json: { message: "Malformed input request, please reformat your input and try again." }, status: 400, errorType: "ValidationException" });
    }
    const request: BedrockMockRequest = { method: incoming.method ?? "", path, modelId: match === null ? null : decodeURIComponent(match[1]!), operation: match?.[2] ?? null, headers: incoming.headers, body };
    requests.push(request);
    if (incoming.method === "GET" && path === "/foundation-models") return sendJsonReply(response, { json: { modelSummaries: [{ modelId: "anthropic.claude-sonnet-4-20250514-v1:0", providerName: "Anthropic" }] } });
    if (match === null || incoming.method !== "POST") return sendJsonReply(response, { json: { message: "Unknown operation" }, status: 404, errorType: "UnknownOperationException" });
    const reply = handler?.(request) ?? bedrockMockDefaultAnswer(request);
    if ("json" in reply) return sendJsonReply(response, reply);
    await sendEventStream(response, reply);
  });
  // Node's 5 s default would close sockets a client still holds idle (Bedrock keeps them far longer).
  server.keepAliveTimeout = 120_000;
  server.on("connection", (socket) => {
    sockets.add(socket);
    socket.on("close", () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    region,
    requests,
    refused,
    assumeRoleCalls: () => assumedRoles,
    use(next) {
      handler = next;
    },
    addKeys(accessKeyId, secretAccessKey, sessionToken) {
      keys.set(accessKeyId, { secretAccessKey, ...(sessionToken === undefined ? {} : { sessionToken }) });
    },
    async close() {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** A JSON answer as Bedrock writes it: errors carry `x-amzn-ErrorType` and `{"message"}`. */
function sendJsonReply(response: ServerResponse, reply: Extract<BedrockMockReply, { json: unknown }>): void {
  const text = JSON.stringify(reply.json);
  response.writeHead(reply.status ?? 200, {
    "content-type": "application/json",
    "content-length": Buffer.byteLength(text),
    "x-amzn-requestid": randomUUID(),
    ...(reply.errorType === undefined ? {} : { "x-amzn-errortype": `${reply.errorType}:http://internal.amazon.com/coral/com.amazon.bedrock/` }),
    ...reply.headers,
  });
  response.end(text);
}

/** Encodes one event as Bedrock does: string headers, JSON payload with a `p` padding field. */
export function encodeBedrockEvent(event: BedrockMockEvent): Uint8Array {
  const string = (value: string) => ({ type: "string" as const, value });
  if ("exception" in event) {
    const headers: MessageHeaders = { ":exception-type": string(event.exception), ":content-type": string("application/json"), ":message-type": string("exception") };
    return codec.encode({ headers, body: fromUtf8(JSON.stringify({ message: event.message })) });
  }
  const headers: MessageHeaders = { ":event-type": string(event.event), ":content-type": string("application/json"), ":message-type": string("event") };
  return codec.encode({ headers, body: fromUtf8(JSON.stringify({ ...event.payload, p: "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKL".slice(0, 5 + (event.event.length % 20)) })) });
}

async function sendEventStream(response: ServerResponse, reply: Extract<BedrockMockReply, { events: unknown }>): Promise<void> {
  const messages = reply.events.map(encodeBedrockEvent);
  if (reply.corruptMessage !== undefined) {
    const target = messages[reply.corruptMessage]!;
    target[target.length - 6] = target[target.length - 6]! ^ 0xff;
  }
  response.writeHead(200, { "content-type": "application/vnd.amazon.eventstream", "x-amzn-requestid": randomUUID(), "transfer-encoding": "chunked" });
  let sent = 0;
  for (const message of messages) {
    if (reply.cutAtByte !== undefined && sent + message.length > reply.cutAtByte) {
      response.write(message.subarray(0, reply.cutAtByte - sent));
      await new Promise((resolve) => setTimeout(resolve, 20));
      response.destroy();
      return;
    }
    // Each message in two writes: a reader must join messages split across chunks.
    const half = Math.floor(message.length / 2);
    response.write(message.subarray(0, half));
    response.write(message.subarray(half));
    sent += message.length;
  }
  response.end();
}

function assumeRole(response: ServerResponse, keys: MockAwsKeys): void {
  const accessKeyId = `ASIA${randomUUID().replace(/-/g, "").slice(0, 16).toUpperCase()}`;
  const secretAccessKey = randomUUID();
  const sessionToken = `FwoGZXIvYXdzE${randomUUID()}`;
  keys.set(accessKeyId, { secretAccessKey, sessionToken });
  const expiration = new Date(Date.now() + 3600_000).toISOString();
  const xml = `<AssumeRoleResponse xmlns="https://sts.amazonaws.com/doc/2011-06-15/">
  <AssumeRoleResult>
    <AssumedRoleUser><AssumedRoleId>AROA3XFRBF535PLBIFPI4:ai-gateway</AssumedRoleId><Arn>arn:aws:sts::123456789012:assumed-role/bedrock/ai-gateway</Arn></AssumedRoleUser>
    <Credentials>
      <AccessKeyId>${accessKeyId}</AccessKeyId>
      <SecretAccessKey>${secretAccessKey}</SecretAccessKey>
      <SessionToken>${sessionToken}</SessionToken>
      <Expiration>${expiration}</Expiration>
    </Credentials>
  </AssumeRoleResult>
  <ResponseMetadata><RequestId>${randomUUID()}</RequestId></ResponseMetadata>
</AssumeRoleResponse>`;
  response.writeHead(200, { "content-type": "text/xml" });
  response.end(xml);
}

function sendStsError(response: ServerResponse, code: string, message: string): void {
  response.writeHead(403, { "content-type": "text/xml" });
  response.end(`<ErrorResponse xmlns="https://sts.amazonaws.com/doc/2011-06-15/"><Error><Type>Sender</Type><Code>${code}</Code><Message>${message}</Message></Error><RequestId>${randomUUID()}</RequestId></ErrorResponse>`);
}
