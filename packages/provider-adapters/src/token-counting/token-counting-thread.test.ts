import { describe, expect, it } from "vitest";
import { countTokensLocally as countFromSources } from "./count-tokens-locally.js";

// The built package counts on its token-counting thread (its worker module exists only in `dist`;
// `pnpm test` builds the package before its tests). From the sources it counts in this thread.
const built = (await import("../../dist/index.js")) as { countTokensLocally: typeof countFromSources };

const body = {
  model: "openai/gpt-4o",
  system: "You are terse.",
  messages: [
    { role: "user", content: "Count these words, please." },
    { role: "assistant", content: [{ type: "text", text: "Sure: five words." }] },
    // Long enough to count in the thousands, short enough to stay well inside the 250 ms encoding
    // budget on a loaded machine (past it the count becomes an estimate and the two would differ).
    { role: "user", content: "The quick brown fox jumps over the lazy dog. ".repeat(300) },
  ],
};

// Starting the thread and loading a tokenizer's ranks take seconds on a loaded machine.
describe("countTokensLocally on the token-counting thread", { timeout: 60_000 }, () => {
  it("counts exactly what the in-thread count gives", async () => {
    const [offThread, inThread] = await Promise.all([built.countTokensLocally(body, "gpt-4o"), countFromSources(body, "gpt-4o")]);
    expect(offThread).toEqual(inThread);
    expect(offThread.inputTokens).toBeGreaterThan(1_000);
  });

  it("counts hostile text (one 200,000-letter word, long space runs) as an estimate instead of for minutes", async () => {
    // js-tiktoken's merge is quadratic in a pre-token's length: this body encoded whole would
    // take hours. Long runs are estimated from their length, and the count says so.
    const hostile = { model: "openai/gpt-4o", messages: [{ role: "user", content: `${"x".repeat(200_000)}${" ".repeat(50_000)}tail words` }] };
    const counted = await countFromSources(hostile, "gpt-4o");
    expect(counted.exact).toBe(false);
    expect(counted.inputTokens).toBeGreaterThan(200_000 / 8);
    const prose = await countFromSources(body, "gpt-4o");
    expect(prose.exact).toBe(true);
  });

  it("keeps this thread's timers running while the tokenizer loads and encodes", async () => {
    // cl100k_base has not been loaded by this file's other test: its ranks load now, in the thread.
    let ticks = 0;
    const timer = setInterval(() => {
      ticks += 1;
    }, 1);
    try {
      const counted = await built.countTokensLocally(body, "gpt-4");
      // Loading the ranks alone is hundreds of milliseconds of synchronous work: on this thread
      // the timer could not have fired in between.
      expect(counted.tokenizer).toBe("cl100k_base");
      expect(ticks).toBeGreaterThanOrEqual(20);
    } finally {
      clearInterval(timer);
    }
  });
});
