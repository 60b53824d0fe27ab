import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";

/** A fresh directory under the system temp dir; `remove()` deletes it. */
export function createTemporaryDirectory(prefix = "gateway-test-"): { path: string; remove(): void } {
  const directory = mkdtempSync(path.join(tmpdir(), prefix));
  return { path: directory, remove: () => rmSync(directory, { recursive: true, force: true }) };
}

/** A logger that keeps every line, for asserting what a start printed. */
export function createRecordingLogger(): { lines: string[]; info(message: string): void; error(message: string): void } {
  const lines: string[] = [];
  return { lines, info: (message) => void lines.push(message), error: (message) => void lines.push(message) };
}
