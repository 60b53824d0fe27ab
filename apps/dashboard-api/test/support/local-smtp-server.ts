import type { AddressInfo } from "node:net";
import { SMTPServer } from "smtp-server";

/** A received email. */
export interface ReceivedMail {
  from: string;
  to: string[];
  raw: string;
}

/** What the server refuses: every recipient (550 at RCPT TO), every message (554 after its data), or nothing. */
export type SmtpRefusal = "recipients" | "messages" | null;

/**
 * A real SMTP server on 127.0.0.1:0 (no TLS, no auth), optionally refusing every recipient or
 * every message; `refuse` changes that while it runs.
 */
export async function startLocalSmtpServer(
  options: { refuseRecipients?: boolean; refuseMessages?: boolean } = {},
): Promise<{ url: string; received: ReceivedMail[]; refuse(refusal: SmtpRefusal): void; close(): Promise<void> }> {
  const received: ReceivedMail[] = [];
  let refusal: SmtpRefusal = options.refuseRecipients ? "recipients" : options.refuseMessages ? "messages" : null;
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ["STARTTLS", "AUTH"],
    logger: false,
    onRcptTo(address, _session, callback) {
      if (refusal === "recipients") {
        const error = new Error("Mailbox unavailable") as Error & { responseCode: number };
        error.responseCode = 550;
        callback(error);
        return;
      }
      callback();
    },
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on("data", (chunk: Buffer) => chunks.push(chunk));
      stream.on("end", () => {
        if (refusal === "messages") {
          const error = new Error("Message refused") as Error & { responseCode: number };
          error.responseCode = 554;
          callback(error);
          return;
        }
        received.push({
          from: session.envelope.mailFrom ? session.envelope.mailFrom.address : "",
          to: session.envelope.rcptTo.map((recipient) => recipient.address),
          raw: Buffer.concat(chunks).toString("utf8"),
        });
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", () => resolve()));
  const port = (server.server.address() as AddressInfo).port;
  return {
    url: `smtp://127.0.0.1:${port}`,
    received,
    refuse(next) {
      refusal = next;
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** Decodes a quoted-printable body enough to find links and tokens in it. */
export function decodeMailText(raw: string): string {
  return raw.replace(/=\r?\n/g, "").replace(/=([0-9A-F]{2})/g, (_match, hex: string) => String.fromCharCode(Number.parseInt(hex, 16)));
}
