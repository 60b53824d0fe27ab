/** One readiness check: resolves when the dependency answers, throws (or rejects) when it does not. */
export type ReadinessCheck = () => Promise<unknown> | unknown;

/** The outcome of {@link checkReadiness}: `ok` or `failed` per check, in the order given. */
export interface ReadinessReport {
  ready: boolean;
  checks: Record<string, "ok" | "failed">;
}

/**
 * Runs readiness checks at once, each bounded by `timeoutMs` (a check that does not answer in
 * time has failed). Never throws: a failure is reported by name, and `onFailure` is told the
 * reason for the logs (the report itself carries no error text, so nothing internal leaks).
 */
export async function checkReadiness(
  checks: Record<string, ReadinessCheck>,
  options: { timeoutMs: number; onFailure?: (name: string, error: unknown) => void },
): Promise<ReadinessReport> {
  const names = Object.keys(checks);
  const outcomes = await Promise.all(
    names.map(async (name) => {
      let timer: NodeJS.Timeout | undefined;
      try {
        await Promise.race([
          Promise.resolve().then(() => checks[name]!()),
          new Promise((_resolve, reject) => {
            timer = setTimeout(() => reject(new Error(`No answer within ${options.timeoutMs} ms.`)), options.timeoutMs);
            timer.unref();
          }),
        ]);
        return "ok" as const;
      } catch (error) {
        options.onFailure?.(name, error);
        return "failed" as const;
      } finally {
        if (timer) clearTimeout(timer);
      }
    }),
  );
  const report: ReadinessReport = { ready: outcomes.every((outcome) => outcome === "ok"), checks: {} };
  names.forEach((name, index) => (report.checks[name] = outcomes[index]!));
  return report;
}
