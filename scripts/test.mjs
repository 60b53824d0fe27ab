// `pnpm test`: every package's tests through turbo (each after its own build), with one
// closing line that adds up vitest's counts across packages: "N passed, N failed, N skipped".
import { spawn } from "node:child_process";
import { fileURLToPath } from "node:url";

const root = fileURLToPath(new URL("../", import.meta.url));
const ansi = /\u001b\[[0-9;]*m/g;
const totals = { passed: 0, failed: 0, skipped: 0 };

const child = spawn("pnpm", ["exec", "turbo", "run", "test", ...process.argv.slice(2)], {
  cwd: root,
  stdio: ["ignore", "pipe", "pipe"],
  env: { TURBO_TELEMETRY_DISABLED: "1", ...process.env },
});

let pending = "";
function scan(text) {
  pending += text;
  const lines = pending.split("\n");
  pending = lines.pop() ?? "";
  for (const line of lines) {
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
child.stderr.on("data", (chunk) => process.stderr.write(chunk));
child.on("close", (code) => {
  scan("\n");
  console.log(`\n${totals.passed} passed, ${totals.failed} failed, ${totals.skipped} skipped`);
  process.exit(code ?? 1);
});
