import { describe, expect, it } from "vitest";
import { compileGuardrails } from "./compile-guardrails.js";
import { isValidIban, isValidLuhn, isValidPaymentCard, isValidUsSsn } from "./guardrail-detectors.js";
import { parseGuardrailsConfig, type PiiDetector, type SecretDetector } from "./guardrails-config.js";

function redactWith(type: "pii" | "secrets", detector: PiiDetector | SecretDetector, text: string): string {
  const config = parseGuardrailsConfig({ rules: [{ type, action: "redact", detectors: [detector] }] });
  return compileGuardrails(config ?? { rules: [] }).checkOutput(text).value;
}

describe("checksums", () => {
  it("checks Luhn", () => {
    expect(isValidLuhn("4111111111111111")).toBe(true);
    expect(isValidLuhn("4111111111111112")).toBe(false);
    expect(isValidLuhn("79927398713")).toBe(true);
    expect(isValidLuhn("12a4")).toBe(false);
    expect(isValidPaymentCard("0000 0000 0000 0000")).toBe(false); // Luhn-valid, not a card network
  });

  it("checks IBAN mod-97 and country length", () => {
    expect(isValidIban("DE89 3704 0044 0532 0130 00")).toBe(true);
    expect(isValidIban("GB82WEST12345698765432")).toBe(true);
    expect(isValidIban("DE89 3704 0044 0532 0130 01")).toBe(false);
    expect(isValidIban("DE89 3704 0044 0532 0130 0")).toBe(false);
  });

  it("checks SSN ranges", () => {
    expect(isValidUsSsn("123-45-6789")).toBe(true);
    for (const invalid of ["000-12-3456", "666-12-3456", "900-12-3456", "123-00-4567", "123-45-0000", "123-45 6789"]) {
      expect(isValidUsSsn(invalid), invalid).toBe(false);
    }
  });
});

describe("PII detectors", () => {
  it.each<[PiiDetector, string, string]>([
    ["email", "write to jane.doe+tag@mail.example.org today", "write to [REDACTED:email] today"],
    ["phone", "call +44 20 7946 0958 now", "call [REDACTED:phone] now"],
    ["phone", "call (415) 555-2671 or 415.555.2671", "call [REDACTED:phone] or [REDACTED:phone]"],
    ["payment_card", "pay 4111 1111 1111 1111 now", "pay [REDACTED:payment_card] now"],
    ["payment_card", "amex 378282246310005.", "amex [REDACTED:payment_card]."],
    ["payment_card", "mc 5500-0000-0000-0004", "mc [REDACTED:payment_card]"],
    ["iban", "to DE89 3704 0044 0532 0130 00 please", "to [REDACTED:iban] please"],
    ["iban", "GB82WEST12345698765432", "[REDACTED:iban]"],
    ["us_ssn", "ssn 123-45-6789.", "ssn [REDACTED:us_ssn]."],
  ])("%s finds a real one", (detector, text, expected) => {
    expect(redactWith("pii", detector, text)).toBe(expected);
  });

  it.each<[PiiDetector, string]>([
    ["email", "no at sign here, user(at)example.com, a@b"],
    ["phone", "on 2024-01-15 at 12:30, order 12345678, +12 34"],
    ["phone", "numbers 123-456-7890 (area code cannot start with 1)"],
    ["payment_card", "pay 4111 1111 1111 1112 now (bad Luhn)"],
    ["payment_card", "id 12345678901234567890123 (too long)"],
    ["iban", "to DE89 3704 0044 0532 0130 01 (bad checksum)"],
    ["iban", "DE12 not an iban"],
    ["us_ssn", "000-12-3456 666-12-3456 901-12-3456 123-00-4567 123-45-0000 1234-56-7890"],
  ])("%s ignores look-alikes: %s", (detector, text) => {
    expect(redactWith("pii", detector, text)).toBe(text);
  });
});

describe("secret detectors", () => {
  const letters = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOP0123456789";
  it.each<[SecretDetector, string]>([
    ["openai_api_key", `sk-${letters.slice(0, 48)}`],
    ["openai_api_key", `sk-proj-${letters}_x-y`],
    ["anthropic_api_key", `sk-ant-api03-${letters}`],
    ["aws_access_key_id", "AKIAIOSFODNN7EXAMPLE"],
    ["aws_access_key_id", "ASIAIOSFODNN7EXAMPLE"],
    ["github_token", `ghp_${letters.slice(0, 36)}`],
    ["github_token", `github_pat_11ABCDEFG0123456789_${letters}`],
    ["slack_token", "xoxb-1234567890-0987654321-abcdefghij"],
    ["gateway_api_key", `gak_${letters}`],
    ["private_key", "-----BEGIN RSA PRIVATE KEY-----\nMIIEowIBAAKCAQEA\nabc==\n-----END RSA PRIVATE KEY-----"],
    ["private_key", "-----BEGIN OPENSSH PRIVATE KEY-----\nb3BlbnNzaC1rZXktdjEAAAAA\n-----END OPENSSH PRIVATE KEY-----"],
  ])("%s is redacted", (detector, secret) => {
    expect(redactWith("secrets", detector, `before ${secret} after`)).toBe(`before [REDACTED:${detector}] after`);
  });

  it("redacts an unterminated private key block to the end of the text", () => {
    expect(redactWith("secrets", "private_key", "x\n-----BEGIN PRIVATE KEY-----\nMIIabc")).toBe("x\n[REDACTED:private_key]");
  });

  it.each<[SecretDetector, string]>([
    ["openai_api_key", "the task-force met; sk-short; ask-abcdefghijklmnopqrstuvwxyz"],
    ["openai_api_key", `an anthropic key sk-ant-api03-${"a".repeat(30)}`],
    ["anthropic_api_key", "sk-ant-short"],
    ["aws_access_key_id", "AKIA1234 and XAKIAIOSFODNN7EXAMPLE"],
    ["github_token", "ghp_short and ghx_abcdefghijklmnopqrstuvwxyzABCDEFGHIJ"],
    ["slack_token", "xoxb- and xoxz-1234567890"],
    ["gateway_api_key", "gak_short"],
    ["private_key", "-----BEGIN PUBLIC KEY-----\nMIIB\n-----END PUBLIC KEY-----"],
  ])("%s ignores look-alikes", (detector, text) => {
    expect(redactWith("secrets", detector, text)).toBe(text);
  });
});
