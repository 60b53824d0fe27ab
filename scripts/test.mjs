// `pnpm test`: every package's tests through turbo (each after its own build), with one
// closing line that adds up vitest's counts across packages: "N passed, N failed, N skipped".
import { spawn } from "node:child_process";
import { fileURLToPath } from "node:url";

const root = fileURLToPath(new URL("../", import.meta.url));
const ansi = /\u001b\[[0-9;]*m/g;
const totals = { passed: 0, failed: 0, skipped: 0 };
/** Turbo tasks that failed (a failed build means that package's tests never ran and are not counted). */
const failedTasks = new Set();

const child = spawn("pnpm", ["exec", "turbo", "run", "test", ...process.argv.slice(2)], {
  cwd: root,
  stdio: ["ignore", "pipe", "pipe"],
  env: { TURBO_TELEMETRY_DISABLED: "1", ...process.env },
});

const pending = { stdout: "", stderr: "" };
function scan(text, stream = "stdout") {
  pending[stream] += text;
  const lines = pending[stream].split("\n");
  pending[stream] = lines.pop() ?? "";
  for (const line of lines) {
    const failedTask = /^\s*Failed:\s+(\S+#\S+)\s*$/.exec(line.replace(ansi, ""));
    if (failedTask) failedTasks.add(failedTask[1]);
    // vitest's summary: "Tests  2 failed | 29 passed | 1 skipped (32)"
    const match = /\bTests\s+(.+)\(\d+\)\s*$/.exec(line.replace(ansi, ""));
    if (!match) continue;
    for (const part of match[1].split("|")) {
      const count = /(\d+)\s+(passed|failed|skipped|todo)/.exec(part);
      if (!count) continue;
      const kind = count[2] === "todo" ? "skipped" : count[2];
      totals[kind] += Number(count[1]);
    }
  }
}
child.stdout.on("data", (chunk) => {
  process.stdout.write(chunk);
  scan(chunk.toString("utf8"));
});
child.stderr.on("data", (chunk) => {
  process.stderr.write(chunk);
  scan(chunk.toString("utf8"), "stderr");
});
child.on("close", (code) => {
  scan("\n");
  scan("\n", "stderr");
  const notRun = [...failedTasks].filter((task) => !task.endsWith("#test"));
  if (notRun.length > 0) console.log(`\nFailed before their tests ran (not counted below): ${notRun.join(", ")}`);
  console.log(`\n${totals.passed} passed, ${totals.failed} failed, ${totals.skipped} skipped`);
  process.exit(code ?? 1);
});
