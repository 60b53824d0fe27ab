import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { compileGuardrails, type CompiledGuardrails } from "./compile-guardrails.js";
import { parseGuardrailsConfig, type GuardrailsConfigInput } from "./guardrails-config.js";

function compile(input: GuardrailsConfigInput): CompiledGuardrails {
  const config = parseGuardrailsConfig(input);
  if (!config) throw new Error("no config");
  return compileGuardrails(config);
}

function streamThrough(guardrails: CompiledGuardrails, deltas: string[], holdbackCharacters?: number) {
  const scanner = guardrails.createOutputScanner(holdbackCharacters === undefined ? {} : { holdbackCharacters });
  let output = "";
  const emittedAfterEachPush: string[] = [];
  for (const delta of deltas) {
    const step = scanner.push(delta);
    if (step.blocked) return { output, blocked: step.blocked, flags: scanner.flags, emittedAfterEachPush };
    output += step.emit;
    emittedAfterEachPush.push(output);
  }
  const last = scanner.flush();
  output += last.emit;
  return { output, blocked: last.blocked, flags: scanner.flags, emittedAfterEachPush };
}

function splitInto(text: string, size: number): string[] {
  const parts: string[] = [];
  for (let index = 0; index < text.length; index += size) parts.push(text.slice(index, index + size));
  return parts;
}

const allPii: GuardrailsConfigInput = { rules: [{ type: "pii", action: "redact" }, { type: "secrets", action: "redact" }] };

describe("output scanner", () => {
  it("catches a card number split across deltas and never shows any of its digits", () => {
    const guardrails = compile(allPii);
    const deltas = ["Your card is 41", "11 1111", " 1111 11", "11 and that is all."];
    const { output, emittedAfterEachPush } = streamThrough(guardrails, deltas);
    expect(output).toBe("Your card is [REDACTED:payment_card] and that is all.");
    for (const partial of emittedAfterEachPush) expect(partial).not.toMatch(/\d/);
  });

  it("gives the same text as the non-streaming check for any split (property)", () => {
    const guardrails = compile(allPii);
    const pieces = [
      "hello ",
      "4111 1111 1111 1111",
      " mail me at jane@example.com",
      " DE89 3704 0044 0532 0130 00",
      " call +44 20 7946 0958",
      " key sk-ant-api03-abcdefghijklmnopqrstuvwxyz0123",
      " ssn 123-45-6789",
      " 4111 1111 1111 1112 stays",
      ".\n",
    ];
    fc.assert(
      fc.property(fc.array(fc.constantFrom(...pieces), { maxLength: 12 }), fc.integer({ min: 1, max: 23 }), (chosen, size) => {
        const text = chosen.join("");
        expect(streamThrough(guardrails, splitInto(text, size)).output).toBe(guardrails.checkOutput(text).value);
      }),
      { numRuns: 200, seed: 7 },
    );
  });

  it("never holds back more than the window (property over random text and splits)", () => {
    const guardrails = compile(allPii);
    const holdback = guardrails.outputHoldbackCharacters;
    expect(holdback).toBe(64);
    fc.assert(
      fc.property(fc.string({ unit: fc.constantFrom("a", "b", " ", ".", "1", "-", "\n"), maxLength: 400 }), fc.integer({ min: 1, max: 40 }), (text, size) => {
        const scanner = guardrails.createOutputScanner();
        let received = 0;
        let emitted = "";
        for (const delta of splitInto(text, size)) {
          received += delta.length;
          emitted += scanner.push(delta).emit;
          // Without matches, everything but the last `holdback` characters is out already.
          if (emitted === text.slice(0, emitted.length)) expect(emitted.length).toBeGreaterThanOrEqual(received - holdback);
        }
        emitted += scanner.flush().emit;
        expect(emitted).toBe(guardrails.checkOutput(text).value);
      }),
      { numRuns: 200, seed: 11 },
    );
  });

  it("releases text exactly `holdback` characters late", () => {
    const guardrails = compile({ rules: [{ type: "pii", action: "redact", detectors: ["us_ssn"] }] });
    const scanner = guardrails.createOutputScanner();
    expect(scanner.push("a".repeat(10)).emit).toBe("");
    expect(scanner.push("b".repeat(10)).emit).toBe("a".repeat(8));
    expect(scanner.flush().emit).toBe("aa" + "b".repeat(10));
  });

  it("blocks a stream without emitting the match", () => {
    const guardrails = compile({ rules: [{ type: "secrets", name: "keys", action: "block" }] });
    const result = streamThrough(guardrails, splitInto(`ok so far ${"x".repeat(80)} then AKIAIOSFODNN7EXAMPLE and more text`, 5));
    expect(result.blocked?.code).toBe("guardrail_blocked");
    expect(result.blocked?.details?.guardrail).toBe("keys");
    expect(result.output).not.toContain("AKIA");
    expect(result.output.startsWith("ok so far")).toBe(true);
  });

  it("suppresses a long secret and a private key block as they keep growing, emitting one marker", () => {
    const guardrails = compile({ rules: [{ type: "secrets", action: "redact" }] });
    const longKey = `sk-proj-${"A1b2C3d4".repeat(40)}`;
    const pem = `-----BEGIN PRIVATE KEY-----\n${"MIIEvQIBADANBgkqhkiG9w0BAQEFAASC\n".repeat(40)}-----END PRIVATE KEY-----`;
    const text = `key: ${longKey} and pem:\n${pem}\nend of answer`;
    const { output, emittedAfterEachPush } = streamThrough(guardrails, splitInto(text, 7));
    expect(output).toBe("key: [REDACTED:openai_api_key] and pem:\n[REDACTED:private_key]\nend of answer");
    for (const partial of emittedAfterEachPush) {
      expect(partial).not.toContain("A1b2");
      expect(partial).not.toContain("MIIE");
    }
  });

  it("records flags while passing text through unchanged", () => {
    const guardrails = compile({ rules: [{ type: "pii", name: "pii-seen", action: "flag" }] });
    const text = "write to jane@example.com please";
    const result = streamThrough(guardrails, splitInto(text, 3));
    expect(result.output).toBe(text);
    expect(result.flags).toEqual(["pii-seen"]);
  });

  it("passes everything through immediately without output rules", () => {
    const scanner = compile({ rules: [{ type: "pii", action: "block", appliesTo: "input" }] }).createOutputScanner();
    expect(scanner.push("4111 1111 1111 1111").emit).toBe("4111 1111 1111 1111");
    expect(scanner.flush().emit).toBe("");
  });
});
