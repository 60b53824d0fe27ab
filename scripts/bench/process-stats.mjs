// Helpers of the benchmarks and `pnpm fuzz` for the processes they start: a free port to give one,
// and its CPU time and memory, read from /proc (Linux).
import { readFileSync } from "node:fs";
import { createServer } from "node:net";

const clockTicksPerSecond = 100;

/** User + system CPU time of a process in microseconds. */
export function readCpuMicros(pid) {
  const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
  // Fields after the command name (which may contain spaces) start after the last ')'.
  const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  const userTicks = Number(fields[11]);
  const systemTicks = Number(fields[12]);
  return ((userTicks + systemTicks) * 1e6) / clockTicksPerSecond;
}

/** Peak resident set size (VmHWM) in megabytes. */
export function readPeakRssMegabytes(pid) {
  const status = readFileSync(`/proc/${pid}/status`, "utf8");
  const match = /VmHWM:\s+(\d+)\s+kB/.exec(status);
  return match ? Number(match[1]) / 1024 : Number.NaN;
}

/** Resident set size (VmRSS) in megabytes; NaN when the process is gone. */
export function readRssMegabytes(pid) {
  try {
    const match = /VmRSS:\s+(\d+)\s+kB/.exec(readFileSync(`/proc/${pid}/status`, "utf8"));
    return match ? Number(match[1]) / 1024 : Number.NaN;
  } catch {
    return Number.NaN;
  }
}

/** A TCP port on 127.0.0.1 that was free a moment ago. */
export function freePort() {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}
