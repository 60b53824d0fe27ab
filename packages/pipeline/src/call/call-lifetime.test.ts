import { GatewayError } from "@gateway/errors";
import { CallAbort, callAbortFollowing } from "@gateway/provider-adapters";
import { describe, expect, it } from "vitest";
import { createCallLifetime } from "./call-lifetime.js";

const never = () => new Promise<never>(() => undefined);

describe("createCallLifetime", () => {
  it("aborts with request_timeout when the deadline passes first", async () => {
    const lifetime = createCallLifetime({ deadline: Date.now() + 20 });
    const raced = lifetime.race(never());
    await expect(raced).rejects.toMatchObject({ code: "request_timeout" });
    expect(lifetime.abortCode()).toBe("request_timeout");
    expect(lifetime.abort.aborted).toBe(true);
    expect(lifetime.abort.signal.aborted).toBe(true);
    lifetime.dispose();
  });

  it("ends the wait with client_cancelled when the app's adopted abort fires", async () => {
    const appAbort = new CallAbort();
    const lifetime = createCallLifetime({ deadline: Date.now() + 60_000, abort: appAbort });
    expect(lifetime.abort).toBe(appAbort);
    const raced = lifetime.race(never());
    appAbort.abort();
    await expect(raced).rejects.toBeInstanceOf(GatewayError);
    await expect(raced).rejects.toMatchObject({ code: "client_cancelled" });
    expect(lifetime.abortCode()).toBe("client_cancelled");
    lifetime.dispose();
  });

  it("is cancelled already when the adopted abort was aborted before the call started", async () => {
    const appAbort = new CallAbort();
    appAbort.abort();
    const lifetime = createCallLifetime({ deadline: Date.now() + 60_000, abort: appAbort });
    expect(lifetime.abortCode()).toBe("client_cancelled");
    await expect(lifetime.race(Promise.resolve(1))).rejects.toMatchObject({ code: "client_cancelled" });
    lifetime.dispose();
  });

  it("stops listening to the app's abort once disposed (the app's abort may outlive the call)", () => {
    const appAbort = new CallAbort();
    const lifetime = createCallLifetime({ deadline: Date.now() + 60_000, abort: appAbort });
    lifetime.dispose();
    // The client leaving after the call ended does not rewrite how the call ended.
    appAbort.abort();
    expect(lifetime.abortCode()).toBeNull();
  });

  it("follows a caller's AbortSignal (the playground's) and forgets it at dispose", async () => {
    const caller = new AbortController();
    const lifetime = createCallLifetime({ deadline: Date.now() + 60_000, abort: callAbortFollowing(caller.signal) });
    const raced = lifetime.race(never());
    caller.abort();
    await expect(raced).rejects.toMatchObject({ code: "client_cancelled" });
    expect(lifetime.abort.signal.aborted).toBe(true);
    lifetime.dispose();

    const later = new AbortController();
    const disposed = createCallLifetime({ deadline: Date.now() + 60_000, abort: callAbortFollowing(later.signal) });
    disposed.dispose();
    later.abort();
    expect(disposed.abortCode()).toBeNull();
  });

  it("keeps the deadline out of a stream once it started, and the caller's abort in", async () => {
    const appAbort = new CallAbort();
    const lifetime = createCallLifetime({ deadline: Date.now() + 20, abort: appAbort });
    lifetime.streamStarted();
    await new Promise((resolve) => setTimeout(resolve, 40));
    expect(lifetime.abortCode()).toBeNull();
    lifetime.cancel();
    expect(lifetime.abortCode()).toBe("client_cancelled");
    expect(appAbort.aborted).toBe(true);
    lifetime.dispose();
  });

  it("settles like the work when nothing aborts it", async () => {
    const lifetime = createCallLifetime({ deadline: Date.now() + 60_000 });
    await expect(lifetime.race(Promise.resolve("answer"))).resolves.toBe("answer");
    await expect(lifetime.race(Promise.reject(new Error("upstream")))).rejects.toThrow("upstream");
    expect(lifetime.abortCode()).toBeNull();
    lifetime.dispose();
  });
});
