import nodemailer from "nodemailer";
import type { DashboardLogger } from "../dashboard-logger.js";

/** One email. */
export interface EmailMessage {
  to: string;
  subject: string;
  text: string;
}

/**
 * Why an email was not delivered: no mail transport is configured (the outbox only logged it),
 * the SMTP server refused the recipient, or the SMTP exchange failed (refused message,
 * unreachable server, timeout).
 */
export type EmailFailureReason = "no_mail_transport" | "recipient_rejected" | "smtp_failed";

/** What happened to an email. */
export interface EmailDeliveryResult {
  /** True only once an SMTP server accepted the message (its answer to the message's data). */
  delivered: boolean;
  /** The SMTP message id or outbox reference. */
  reference: string | null;
  /** Why it failed (safe to store: no credentials). */
  failure: string | null;
  /** Why it failed, as a code (null when delivered). */
  reason: EmailFailureReason | null;
}

/** Sends email through SMTP, or into a logged outbox when SMTP is not configured. */
export interface Mailer {
  readonly kind: "smtp" | "outbox";
  send(message: EmailMessage): Promise<EmailDeliveryResult>;
  /** Messages that went to the outbox (kind `outbox` only), newest last. */
  readonly outbox: readonly (EmailMessage & { reference: string; sentAt: Date })[];
  close(): void;
}

/** Settings of {@link createMailer}. */
export interface MailerSettings {
  /** `SMTP_URL`; null = logged outbox. */
  smtpUrl: string | null;
  from: string;
  timeoutMs: number;
  logger: DashboardLogger;
}

/**
 * Creates the mailer. With `smtpUrl`, messages go through nodemailer's SMTP transport
 * (`smtp://` with STARTTLS when offered, or `smtps://`): `delivered: true` once the server
 * accepted the message; a refusal or timeout is reported as `delivered: false` with its reason.
 * Without it, messages are kept in memory and written to the log (the embedded default for
 * local use; set `SMTP_URL` in production), and reported as NOT delivered
 * (`no_mail_transport`): nobody received them.
 */
export function createMailer(settings: MailerSettings): Mailer {
  const outbox: (EmailMessage & { reference: string; sentAt: Date })[] = [];
  if (settings.smtpUrl === null) {
    let counter = 0;
    return {
      kind: "outbox",
      outbox,
      async send(message) {
        counter += 1;
        const reference = `outbox_${Date.now().toString(36)}_${counter}`;
        outbox.push({ ...message, reference, sentAt: new Date() });
        if (outbox.length > 100) outbox.shift();
        settings.logger.info("email outbox (SMTP_URL is not set): not delivered", { reference, to: message.to, subject: message.subject, text: message.text });
        return { delivered: false, reference, failure: "No mail transport is configured (SMTP_URL is not set).", reason: "no_mail_transport" };
      },
      close() {},
    };
  }
  const transport = nodemailer.createTransport(settings.smtpUrl, {
    connectionTimeout: settings.timeoutMs,
    greetingTimeout: settings.timeoutMs,
    socketTimeout: settings.timeoutMs,
  } as nodemailer.TransportOptions);
  return {
    kind: "smtp",
    outbox,
    async send(message) {
      try {
        const info = (await transport.sendMail({ from: settings.from, to: message.to, subject: message.subject, text: message.text })) as {
          messageId?: string;
          rejected?: unknown[];
        };
        if (Array.isArray(info.rejected) && info.rejected.length > 0) {
          return { delivered: false, reference: info.messageId ?? null, failure: "The SMTP server rejected the recipient.", reason: "recipient_rejected" };
        }
        return { delivered: true, reference: info.messageId ?? null, failure: null, reason: null };
      } catch (error) {
        const failure = describeSmtpFailure(error);
        settings.logger.warn("email delivery failed", { to: message.to, failure });
        return { delivered: false, reference: null, failure, reason: isRecipientRefusal(error) ? "recipient_rejected" : "smtp_failed" };
      }
    },
    close() {
      transport.close();
    },
  };
}

/** nodemailer's `EENVELOPE`: the server refused the (only) recipient at RCPT TO. */
function isRecipientRefusal(error: unknown): boolean {
  return typeof error === "object" && error !== null && (error as { code?: unknown }).code === "EENVELOPE";
}

function describeSmtpFailure(error: unknown): string {
  if (typeof error === "object" && error !== null) {
    const { code, responseCode } = error as { code?: unknown; responseCode?: unknown };
    if (typeof responseCode === "number") return `SMTP answered ${responseCode}.`;
    if (typeof code === "string") return `SMTP delivery failed (${code}).`;
  }
  return "SMTP delivery failed.";
}
