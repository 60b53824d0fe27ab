// CPU time and peak memory of another process, read from /proc (Linux).
import { readFileSync } from "node:fs";

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
