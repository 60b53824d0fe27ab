import type { AddressInfo } from "node:net";
import { SMTPServer } from "smtp-server";

/** A received email. */
export interface ReceivedMail {
  to: string[];
  raw: string;
}

/** A real SMTP server on 127.0.0.1:0 (no TLS, no auth) that keeps what it receives. */
export async function startLocalSmtpServer(): Promise<{ url: string; received: ReceivedMail[]; close(): Promise<void> }> {
  const received: ReceivedMail[] = [];
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ["STARTTLS", "AUTH"],
    logger: false,
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on("data", (chunk: Buffer) => chunks.push(chunk));
      stream.on("end", () => {
        received.push({ to: session.envelope.rcptTo.map((recipient) => recipient.address), raw: Buffer.concat(chunks).toString("utf8") });
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", () => resolve()));
  const port = (server.server.address() as AddressInfo).port;
  return { url: `smtp://127.0.0.1:${port}`, received, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}

/** The invitation link of an email (quoted-printable decoded). */
export function invitationLinkFrom(raw: string): string {
  const text = raw.replace(/=\r?\n/g, "").replace(/=([0-9A-F]{2})/g, (_match, hex: string) => String.fromCharCode(Number.parseInt(hex, 16)));
  const match = /(https?:\/\/\S+\/invitations\/accept\?token=[A-Za-z0-9_%-]+)/.exec(text);
  if (!match) throw new Error("no invitation link in the email");
  return match[1]!;
}
