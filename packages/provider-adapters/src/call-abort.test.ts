import { describe, expect, it } from "vitest";
import { CallAbort, callAbortFollowing } from "./call-abort.js";

describe("CallAbort", () => {
  it("tells its listeners once, in order, and not the ones that unsubscribed", () => {
    const abort = new CallAbort();
    const heard: string[] = [];
    abort.subscribe(() => heard.push("first"));
    const stop = abort.subscribe(() => heard.push("gone"));
    abort.subscribe(() => heard.push("last"));
    stop();
    expect(abort.aborted).toBe(false);
    abort.abort(new Error("caller left"));
    abort.abort(new Error("again"));
    expect(abort.aborted).toBe(true);
    expect(heard).toEqual(["first", "last"]);
    // Subscribing after the abort never calls back (the caller checks `aborted` first).
    abort.subscribe(() => heard.push("late"));
    expect(heard).toEqual(["first", "last"]);
  });

  it("gives a signal that follows it, whether read before or after the abort", () => {
    const early = new CallAbort();
    const signal = early.signal;
    expect(early.signal).toBe(signal);
    expect(signal.aborted).toBe(false);
    const reason = new Error("deadline");
    early.abort(reason);
    expect(signal.aborted).toBe(true);
    expect(signal.reason).toBe(reason);

    const late = new CallAbort();
    late.abort(reason);
    expect(late.signal.aborted).toBe(true);
    expect(late.signal.reason).toBe(reason);
  });

  it("a listener that throws does not keep the others from hearing the abort", async () => {
    const abort = new CallAbort();
    const heard: string[] = [];
    const uncaught: unknown[] = [];
    const onUncaught = (error: unknown) => uncaught.push(error);
    const listeners = process.listeners("uncaughtException");
    process.removeAllListeners("uncaughtException");
    process.on("uncaughtException", onUncaught);
    try {
      abort.subscribe(() => {
        throw new Error("listener failed");
      });
      abort.subscribe(() => heard.push("second"));
      abort.abort();
      expect(heard).toEqual(["second"]);
      await new Promise((resolve) => setImmediate(resolve));
      expect(uncaught).toEqual([expect.objectContaining({ message: "listener failed" })]);
    } finally {
      process.off("uncaughtException", onUncaught);
      for (const listener of listeners) process.on("uncaughtException", listener);
    }
  });

  it("follows a framework's AbortSignal, aborted before or after", () => {
    const controller = new AbortController();
    const abort = callAbortFollowing(controller.signal);
    const heard: string[] = [];
    abort.subscribe(() => heard.push("aborted"));
    expect(abort.aborted).toBe(false);
    const reason = new Error("browser left");
    controller.abort(reason);
    expect(heard).toEqual(["aborted"]);
    expect(abort.signal.reason).toBe(reason);

    const early = new AbortController();
    early.abort(reason);
    expect(callAbortFollowing(early.signal).aborted).toBe(true);
  });
});
