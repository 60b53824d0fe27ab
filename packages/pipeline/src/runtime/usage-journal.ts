import { randomUUID } from "node:crypto";
import { close, fdatasync, mkdirSync, openSync, readFileSync, readdirSync, unlinkSync, writeSync } from "node:fs";
import path from "node:path";
import type { UsageEventRecord } from "@gateway/contracts";

/** Settings of {@link openUsageJournal}. */
export interface UsageJournalSettings {
  /** The journal's directory (created when missing); it holds `usage-<pid>-<time>-<n>.jsonl` segments. */
  directory: string;
  /** Id of an event that has none yet (default `randomUUID`); the database keeps it, so a replay inserts the event once. */
  createId?: () => string;
  /** How often appended lines are flushed to the disk with fdatasync, in ms (default 100). */
  syncIntervalMs?: number;
  /** Events per segment before a new one is started (default 10000). */
  maxSegmentEvents?: number;
  /** Age of a segment after which a new one is started (default 10000 ms), so written segments are deleted soon. */
  maxSegmentAgeMs?: number;
  /** Told about failed appends, syncs and deletions, and about unreadable lines of a recovered segment. */
  onError?: (error: unknown) => void;
}

/**
 * An append-only journal of usage events on the local disk, in front of the usage queue: an
 * event is appended (one `write` system call, so it is in the operating system's page cache and
 * survives the process being killed) before it is queued for the database, and acknowledged once
 * the database has it. A segment is deleted when it is closed and all its events are
 * acknowledged; what is left when a process dies is `recovered` by the next one.
 */
export interface UsageJournal {
  /**
   * Events journaled by a previous process of this directory (one that is no longer running) and
   * perhaps not in the database: write them, skipping ids already stored, then `acknowledge` them.
   */
  readonly recovered: readonly UsageEventRecord[];
  /**
   * Gives the event an `id` when it has none and appends it. Appending an event again with the
   * same id (it changed) replaces it: a replay writes the last one. Never throws (a failed append is reported).
   */
  append(event: UsageEventRecord): void;
  /** These events are in the database: segments whose events are all acknowledged are deleted. */
  acknowledge(events: readonly UsageEventRecord[]): void;
  /** Events appended (or recovered) and not acknowledged yet. */
  readonly pending: number;
  /** Flushes and closes the open segment; segments with unacknowledged events stay for the next start. */
  close(): Promise<void>;
}

interface Segment {
  path: string;
  fd: number | null;
  appended: number;
  pending: number;
  openedAt: number;
  /** No more appends (the next segment took over). */
  sealed: boolean;
  /** Lines written since the last fdatasync. */
  dirty: boolean;
  /** The fdatasync in flight, if any. */
  syncing: Promise<void> | null;
}

const SEGMENT_PATTERN = /^usage-(\d+)-(\d+)-(\d+)\.jsonl$/;

/**
 * Opens the journal in `settings.directory`: reads the segments of processes that are no longer
 * running (`recovered`), then appends to a new segment of this process. A live process's segments
 * are left alone, so instances sharing a data directory do not replay each other's journals.
 */
export function openUsageJournal(settings: UsageJournalSettings): UsageJournal {
  const createId = settings.createId ?? randomUUID;
  const syncIntervalMs = settings.syncIntervalMs ?? 100;
  const maxSegmentEvents = settings.maxSegmentEvents ?? 10_000;
  const maxSegmentAgeMs = settings.maxSegmentAgeMs ?? 10_000;
  const report = (error: unknown) => settings.onError?.(error);
  mkdirSync(settings.directory, { recursive: true });

  /** The segments holding each pending event's lines (one entry per line). */
  const owners = new Map<string, Segment[]>();
  const closing = new Set<Promise<void>>();
  let pending = 0;
  /** Recovered events by id: the last line of an id wins. */
  const latest = new Map<string, UsageEventRecord>();
  for (const name of readdirSync(settings.directory).sort(compareSegmentNames)) {
    const match = SEGMENT_PATTERN.exec(name);
    if (match === null || isRunningElsewhere(Number(match[1]))) continue;
    const segment: Segment = { path: path.join(settings.directory, name), fd: null, appended: 0, pending: 0, openedAt: 0, sealed: true, dirty: false, syncing: null };
    const events = readSegment(segment.path, report);
    for (const event of events) {
      const holders = owners.get(event.id!);
      if (holders === undefined) {
        owners.set(event.id!, [segment]);
        pending += 1;
      } else holders.push(segment);
      latest.set(event.id!, event);
    }
    segment.appended = events.length;
    segment.pending = events.length;
    if (events.length === 0) removeSegment(segment);
  }
  const recovered = [...latest.values()];

  const startedAt = Date.now();
  let sequence = 0;
  let current = openSegment();

  function openSegment(): Segment {
    for (;;) {
      sequence += 1;
      const file = path.join(settings.directory, `usage-${process.pid}-${startedAt}-${sequence}.jsonl`);
      try {
        // `ax`: never append to a segment left by an earlier process that had the same pid.
        return { path: file, fd: openSync(file, "ax", 0o600), appended: 0, pending: 0, openedAt: Date.now(), sealed: false, dirty: false, syncing: null };
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
      }
    }
  }

  function removeSegment(segment: Segment): void {
    try {
      unlinkSync(segment.path);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "ENOENT") report(error);
    }
  }

  /** fdatasync in the thread pool (never on the event loop); one at a time per segment. */
  function sync(segment: Segment): Promise<void> {
    if (segment.syncing !== null) return segment.syncing;
    if (!segment.dirty || segment.fd === null) return Promise.resolve();
    segment.dirty = false;
    const fd = segment.fd;
    segment.syncing = new Promise<void>((resolve) => {
      fdatasync(fd, (error) => {
        if (error) report(error);
        segment.syncing = null;
        resolve();
      });
    });
    return segment.syncing;
  }

  /** Seals the segment: flushes and closes it, then deletes it once all its events are acknowledged. */
  function seal(segment: Segment): void {
    segment.sealed = true;
    const done = (async () => {
      while (segment.syncing !== null || segment.dirty) await sync(segment);
      const fd = segment.fd;
      segment.fd = null;
      if (fd !== null) await new Promise<void>((resolve) => close(fd, () => resolve()));
      if (segment.pending === 0) removeSegment(segment);
    })();
    closing.add(done);
    void done.finally(() => closing.delete(done));
  }

  function rotate(): void {
    const previous = current;
    current = openSegment();
    seal(previous);
  }

  const timer = setInterval(() => {
    const age = Date.now() - current.openedAt;
    // A segment whose events are all written, or an old one, is replaced so that it can be deleted.
    if (current.appended > 0 && (current.pending === 0 || age >= maxSegmentAgeMs)) {
      try {
        rotate();
      } catch (error) {
        report(error);
      }
    } else void sync(current);
  }, syncIntervalMs);
  timer.unref();

  let closed = false;
  return {
    recovered,
    append(event) {
      event.id ??= createId();
      if (closed) return;
      try {
        if (current.appended >= maxSegmentEvents) rotate();
        const line = `${JSON.stringify(event)}\n`;
        writeSync(current.fd!, line);
        current.appended += 1;
        current.pending += 1;
        current.dirty = true;
        const holders = owners.get(event.id);
        if (holders === undefined) {
          owners.set(event.id, [current]);
          pending += 1;
        } else holders.push(current);
      } catch (error) {
        report(error);
      }
    },
    acknowledge(events) {
      for (const event of events) {
        const holders = event.id === undefined ? undefined : owners.get(event.id);
        if (holders === undefined) continue;
        owners.delete(event.id!);
        pending -= 1;
        for (const segment of holders) {
          segment.pending -= 1;
          if (segment.pending === 0 && segment.sealed && segment.fd === null) removeSegment(segment);
        }
      }
    },
    get pending() {
      return pending;
    },
    async close() {
      if (closed) return;
      closed = true;
      clearInterval(timer);
      seal(current);
      while (closing.size > 0) await Promise.all([...closing]);
    },
  };
}

/** Oldest first: by process start time, then sequence. */
function compareSegmentNames(left: string, right: string): number {
  const a = SEGMENT_PATTERN.exec(left);
  const b = SEGMENT_PATTERN.exec(right);
  if (a === null || b === null) return left.localeCompare(right);
  return Number(a[2]) - Number(b[2]) || Number(a[3]) - Number(b[3]) || left.localeCompare(right);
}

/** Whether another running process owns a segment (this process's pid counts as ended: a restarted container reuses it). */
function isRunningElsewhere(pid: number): boolean {
  if (pid === process.pid) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}

/** The events of one segment; a line that is not a whole event (a write cut by a crash of the machine) is reported and skipped. */
function readSegment(file: string, report: (error: unknown) => void): UsageEventRecord[] {
  const events: UsageEventRecord[] = [];
  let text: string;
  try {
    text = readFileSync(file, "utf8");
  } catch (error) {
    report(error);
    return events;
  }
  const lines = text.split("\n");
  for (let index = 0; index < lines.length; index += 1) {
    const line = lines[index]!;
    if (line === "") continue;
    try {
      const parsed = JSON.parse(line) as UsageEventRecord & { occurredAt: string };
      const occurredAt = new Date(parsed.occurredAt);
      if (typeof parsed.id !== "string" || typeof parsed.requestId !== "string" || Number.isNaN(occurredAt.valueOf())) throw new Error("not a usage event");
      events.push({ ...parsed, occurredAt });
    } catch {
      report(new Error(`Skipped an unreadable line (${index + 1}) of the usage journal ${path.basename(file)}.`));
    }
  }
  return events;
}
