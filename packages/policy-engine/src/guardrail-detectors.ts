import type { PiiDetector, SecretDetector } from "./guardrails-config.js";

/** A built-in detector: a candidate expression, an optional validity check, and its stream window. */
export interface Detector {
  kind: PiiDetector | SecretDetector;
  /** Global (`g`) expression finding candidates. */
  expression: RegExp;
  /** Rejects candidates that have the shape but not the checksum / valid ranges. */
  validate?: (candidate: string) => boolean;
  /**
   * Characters of hold-back a stream needs so that a match is recognised before any of it is
   * emitted: the longest match for fixed-length formats, the shortest recognisable prefix
   * (plus lookahead) for open-ended ones, whose continuation is then suppressed.
   */
  windowCharacters: number;
}

/** Luhn check of a string of digits (payment card numbers). */
export function isValidLuhn(digits: string): boolean {
  if (!/^\d+$/.test(digits)) return false;
  let sum = 0;
  let double = false;
  for (let index = digits.length - 1; index >= 0; index -= 1) {
    let value = digits.charCodeAt(index) - 48;
    if (double) {
      value *= 2;
      if (value > 9) value -= 9;
    }
    sum += value;
    double = !double;
  }
  return sum % 10 === 0;
}

/** Payment card: 13 to 19 digits, a major network's first digit (2-6), and the Luhn check. */
export function isValidPaymentCard(candidate: string): boolean {
  const digits = candidate.replace(/[ -]/g, "");
  return digits.length >= 13 && digits.length <= 19 && /^[2-6]/.test(digits) && isValidLuhn(digits);
}

/** IBAN lengths of common countries; other countries accept 15 to 34 characters. */
const ibanLengthByCountry: Record<string, number> = {
  AT: 20, BE: 16, CH: 21, CZ: 24, DE: 22, DK: 18, ES: 24, FI: 18, FR: 27, GB: 22, GR: 27,
  IE: 22, IT: 27, LU: 20, NL: 18, NO: 15, PL: 28, PT: 25, SE: 24,
};

/** IBAN: country length (where known), 15 to 34 characters and the ISO 13616 mod-97 check. */
export function isValidIban(candidate: string): boolean {
  const iban = candidate.replace(/ /g, "").toUpperCase();
  if (!/^[A-Z]{2}\d{2}[A-Z0-9]{11,30}$/.test(iban)) return false;
  const expectedLength = ibanLengthByCountry[iban.slice(0, 2)];
  if (expectedLength !== undefined && iban.length !== expectedLength) return false;
  const rearranged = iban.slice(4) + iban.slice(0, 4);
  let remainder = 0;
  for (const character of rearranged) {
    const code = character.charCodeAt(0);
    const value = code >= 65 ? String(code - 55) : character;
    for (const digit of value) remainder = (remainder * 10 + (digit.charCodeAt(0) - 48)) % 97;
  }
  return remainder === 1;
}

/**
 * US SSN `AAA-GG-SSSS` (or spaces): area not 000, 666 or 900-999; group not 00; serial not 0000.
 */
export function isValidUsSsn(candidate: string): boolean {
  const match = /^(\d{3})([- ])(\d{2})\2(\d{4})$/.exec(candidate);
  if (!match) return false;
  const area = Number(match[1]);
  return area !== 0 && area !== 666 && area < 900 && match[3] !== "00" && match[4] !== "0000";
}

/** Phone: international `+` numbers need 8 to 15 digits; North American numbers need an area code 2-9. */
function isValidPhone(candidate: string): boolean {
  const digits = candidate.replace(/\D/g, "");
  if (candidate.startsWith("+")) return digits.length >= 8 && digits.length <= 15;
  return /^[2-9]/.test(digits) && digits.length === 10;
}

const detectors: Record<PiiDetector | SecretDetector, Detector> = {
  email: {
    kind: "email",
    expression:
      /(?<![A-Za-z0-9._%+-])[A-Za-z0-9._%+-]{1,64}@(?:[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?\.){1,10}[A-Za-z]{2,24}(?![A-Za-z0-9-])/gu,
    windowCharacters: 64,
  },
  phone: {
    kind: "phone",
    expression:
      /(?<![\w+])(?:\+[1-9]\d{0,2}(?:[ .-]?(?:\(\d{1,4}\)|\d{1,4})){2,6}|(?:\(\d{3}\) ?|\d{3}[-. ])\d{3}[-. ]\d{4})(?![\w])/gu,
    validate: isValidPhone,
    windowCharacters: 40,
  },
  payment_card: {
    kind: "payment_card",
    expression: /(?<!\d)(?:\d[ -]?){12,18}\d(?!\d)/gu,
    validate: isValidPaymentCard,
    windowCharacters: 38,
  },
  iban: {
    kind: "iban",
    expression: /(?<![A-Za-z0-9])[A-Z]{2}\d{2}(?: ?[A-Z0-9]{4}){2,7}(?: ?[A-Z0-9]{1,3})?(?![A-Za-z0-9])/gu,
    validate: isValidIban,
    windowCharacters: 44,
  },
  us_ssn: {
    kind: "us_ssn",
    expression: /(?<![\d-])\d{3}([- ])\d{2}\1\d{4}(?![\d-])/gu,
    validate: isValidUsSsn,
    windowCharacters: 12,
  },
  openai_api_key: {
    kind: "openai_api_key",
    expression: /(?<![A-Za-z0-9_-])sk-(?!ant-)[A-Za-z0-9_-]{20,}/gu,
    windowCharacters: 24,
  },
  anthropic_api_key: {
    kind: "anthropic_api_key",
    expression: /(?<![A-Za-z0-9_-])sk-ant-[A-Za-z0-9_-]{20,}/gu,
    windowCharacters: 28,
  },
  aws_access_key_id: {
    kind: "aws_access_key_id",
    expression: /(?<![A-Za-z0-9])(?:AKIA|ASIA)[A-Z0-9]{16}(?![A-Za-z0-9])/gu,
    windowCharacters: 21,
  },
  github_token: {
    kind: "github_token",
    expression: /(?<![A-Za-z0-9_])(?:gh[pousr]_[A-Za-z0-9]{36,}|github_pat_[A-Za-z0-9_]{22,})/gu,
    windowCharacters: 41,
  },
  slack_token: {
    kind: "slack_token",
    expression: /(?<![A-Za-z0-9])xox[abposr]-[A-Za-z0-9-]{10,}/gu,
    windowCharacters: 16,
  },
  gateway_api_key: {
    kind: "gateway_api_key",
    expression: /(?<![A-Za-z0-9_])gak_[A-Za-z0-9_-]{20,}/gu,
    windowCharacters: 25,
  },
  private_key: {
    kind: "private_key",
    // An unterminated block counts up to the end of the text (so a stream suppresses it).
    expression:
      /-----BEGIN[A-Z0-9 ]{0,40} PRIVATE KEY(?: BLOCK)?-----(?:[^]*?-----END[A-Z0-9 ]{0,40} PRIVATE KEY(?: BLOCK)?-----|[^]*$)/gu,
    windowCharacters: 48,
  },
};

/** The built-in detector of a kind. */
export function getDetector(kind: PiiDetector | SecretDetector): Detector {
  return detectors[kind];
}
