import { type FormEvent, useState } from "react";
import { SelectField, type SelectOption, TextField } from "../components/fields.js";
import { parseDollarsToMicros } from "../format/format-micros.js";
import { type ActivityFilters, maxMetadataFilters, parseMetadataFilter, type SingleActivityFilter, withoutActivityFilter } from "./activity-filters.js";
import { activityFilterLabels, budgetOutcomeLabels, describeActivityFilters, type ActivityFilterNames } from "./describe-activity-filters.js";

/** What the "Add a filter" form can add: the time range, a single-value filter, or a metadata entry. */
type FilterKind = "time" | "metadata" | Exclude<SingleActivityFilter, "from" | "to">;

const timePresets: Record<string, { label: string; hours: number }> = {
  "1h": { label: "Last hour", hours: 1 },
  "24h": { label: "Last 24 hours", hours: 24 },
  "7d": { label: "Last 7 days", hours: 24 * 7 },
  "30d": { label: "Last 30 days", hours: 24 * 30 },
};

const statusOptions: SelectOption[] = [
  { value: "2xx", label: "2xx (succeeded)" },
  { value: "4xx", label: "4xx (refused)" },
  { value: "5xx", label: "5xx (failed upstream or in the gateway)" },
  ...["400", "401", "403", "404", "408", "413", "429", "500", "502", "503", "504"].map((code) => ({ value: code, label: code })),
];

/** Hints for the text filters: what is matched. */
const textHints: Partial<Record<FilterKind, string>> = {
  requested_model: "As the caller asked, e.g. fast or openai/gpt-4o-mini",
  model: "The model that answered, e.g. demo/chat",
  endpoint: "e.g. chat_completions, responses, embeddings",
  error_code: "e.g. upstream_error, rate_limit_exceeded",
  client_label: "The name part of X-Gateway-Client",
  client_version: "The version part of X-Gateway-Client",
  session_id: "X-Gateway-Session-ID",
  request_id: "The x-request-id of the answer",
  metadata: "key=value, from X-Gateway-Metadata or the key's default metadata",
};

/** The local date-time value of an `<input type="datetime-local">` as an ISO instant; null when empty or unreadable. */
function localToIso(value: string): string | null {
  if (value === "") return null;
  const time = new Date(value).getTime();
  return Number.isNaN(time) ? null : new Date(time).toISOString();
}

/**
 * The filters as chips (each removable) and a small form to add one: a filter kind, then its
 * value as the kind needs it (a choice of projects, keys or status classes; dollars; key=value).
 */
export function ActivityFilterBar(props: {
  filters: ActivityFilters;
  onChange: (filters: ActivityFilters) => void;
  names: ActivityFilterNames & {
    projects: readonly { id: string; name: string }[];
    teams: readonly { id: string; name: string }[];
    keys: readonly { id: string; name: string }[];
    connections: readonly { id: string; name: string }[];
    budgets: readonly { id: string; name: string }[];
  };
}) {
  const { filters, names } = props;
  const [kind, setKind] = useState<FilterKind | "">("");
  const [value, setValue] = useState("");
  const [until, setUntil] = useState("");
  const [error, setError] = useState<string | undefined>();
  const chips = describeActivityFilters(filters, names);
  const kindOptions: SelectOption[] = [
    { value: "time", label: "Time range" },
    ...(Object.entries(activityFilterLabels) as [Exclude<SingleActivityFilter, "from" | "to">, string][])
      .filter(([name]) => filters[name] === undefined)
      .map(([name, label]) => ({ value: name, label: name === "guardrail_flagged" ? "Guardrail flagged" : label })),
    { value: "metadata", label: "Metadata" },
  ];
  const choose = (next: string) => {
    setKind(next as FilterKind | "");
    setValue(next === "time" ? "24h" : "");
    setUntil("");
    setError(undefined);
  };
  const add = (event: FormEvent) => {
    event.preventDefault();
    if (kind === "") return;
    const next: ActivityFilters = { ...filters };
    if (kind === "time") {
      if (value in timePresets) {
        next.from = new Date(Date.now() - timePresets[value]!.hours * 3_600_000).toISOString();
        delete next.to;
      } else {
        const from = localToIso(value);
        const to = localToIso(until);
        if (from === null && to === null) return setError("Enter a start, an end, or both.");
        if (from !== null && to !== null && from >= to) return setError("The end must be after the start.");
        if (from !== null) next.from = from;
        else delete next.from;
        if (to !== null) next.to = to;
        else delete next.to;
      }
    } else if (kind === "metadata") {
      const entry = parseMetadataFilter(value);
      if (entry === null) return setError("Enter key=value (letters, digits, _ . - in the key).");
      if ((filters.metadata ?? []).length >= maxMetadataFilters) return setError(`At most ${maxMetadataFilters} metadata filters.`);
      next.metadata = [...new Set([...(filters.metadata ?? []), entry])];
    } else if (kind === "guardrail_flagged") {
      next.guardrail_flagged = "true";
    } else if (kind === "min_cost_micros" || kind === "max_cost_micros") {
      const micros = parseDollarsToMicros(value);
      if (micros === null) return setError("Enter an amount in dollars, e.g. 0.01.");
      next[kind] = String(micros);
    } else if (kind === "min_latency_ms") {
      if (!/^\d+$/.test(value.trim())) return setError("Enter whole milliseconds, e.g. 2000.");
      next.min_latency_ms = value.trim();
    } else {
      if (value.trim() === "") return setError(kind === "project_id" || kind === "team_id" || kind === "api_key_id" || kind === "connection_id" ? "Choose one." : "Required.");
      next[kind] = value.trim();
    }
    props.onChange(next);
    choose("");
  };
  const remove = (chip: (typeof chips)[number]) => {
    let next = filters;
    for (const entry of chip.remove) next = withoutActivityFilter(next, entry.name, entry.value);
    props.onChange(next);
  };
  const choices = (items: readonly { id: string; name: string }[]) => items.map((item) => ({ value: item.id, label: item.name }));
  return (
    <div className="stack">
      {chips.length > 0 ? (
        <div className="chip-row">
          <ul className="chips" aria-label="Active filters">
            {chips.map((chip) => (
              <li key={chip.id} className="chip">
                <span>
                  <span className="chip-label">{chip.label}:</span> {chip.value}
                </span>
                <button type="button" className="chip-remove" aria-label={`Remove the filter ${chip.label}: ${chip.value}`} onClick={() => remove(chip)}>
                  ✕
                </button>
              </li>
            ))}
          </ul>
          <button type="button" className="button small link" onClick={() => props.onChange({})}>
            Clear all filters
          </button>
        </div>
      ) : null}
      <form className="filters" role="search" aria-label="Add a filter" onSubmit={add}>
        <SelectField label="Add a filter" value={kind} onChange={choose} placeholder="Choose…" options={kindOptions} />
        {kind === "time" ? (
          <>
            <SelectField label="Range" value={value in timePresets ? value : "custom"} onChange={(next) => setValue(next === "custom" ? "" : next)} options={[...Object.entries(timePresets).map(([preset, entry]) => ({ value: preset, label: entry.label })), { value: "custom", label: "From … to …" }]} />
            {value in timePresets ? null : (
              <>
                <TextField label="From" type="datetime-local" value={value} onChange={setValue} error={error} />
                <TextField label="To" type="datetime-local" value={until} onChange={setUntil} />
              </>
            )}
          </>
        ) : kind === "project_id" || kind === "team_id" || kind === "api_key_id" || kind === "connection_id" ? (
          <SelectField
            label={activityFilterLabels[kind]}
            value={value}
            onChange={setValue}
            placeholder="Choose…"
            error={error}
            options={choices(kind === "project_id" ? names.projects : kind === "team_id" ? names.teams : kind === "api_key_id" ? names.keys : names.connections)}
          />
        ) : kind === "status" ? (
          <SelectField label="Status" value={value} onChange={setValue} placeholder="Choose…" error={error} options={statusOptions} />
        ) : kind === "budget_outcome" ? (
          <SelectField label="Budget outcome" value={value} onChange={setValue} placeholder="Choose…" error={error} options={[
              { value: "reserved", label: budgetOutcomeLabels.reserved! },
              { value: "soft_threshold", label: budgetOutcomeLabels.soft_threshold! },
              ...names.budgets.map((budget) => ({ value: `rejected:${budget.id}`, label: `rejected by ${budget.name}` })),
            ]}
          />
        ) : kind === "rate_limit_outcome" ? (
          <SelectField label="Rate-limit outcome" value={value} onChange={setValue} placeholder="Choose…" error={error} options={[{ value: "limited", label: "refused by a rate limit" }]} />
        ) : kind === "min_cost_micros" || kind === "max_cost_micros" ? (
          <TextField label={`${activityFilterLabels[kind]} (USD)`} value={value} onChange={setValue} error={error} placeholder="0.01" />
        ) : kind === "min_latency_ms" ? (
          <TextField label="Latency at least (ms)" type="number" min={0} value={value} onChange={setValue} error={error} placeholder="2000" />
        ) : kind === "guardrail_flagged" || kind === "" ? null : (
          <TextField label={kind === "metadata" ? "Metadata" : activityFilterLabels[kind]} type="search" value={value} onChange={setValue} error={error} hint={textHints[kind]} />
        )}
        {kind !== "" ? (
          <div className="field">
            <button type="submit" className="button primary">
              Add filter
            </button>
          </div>
        ) : null}
      </form>
    </div>
  );
}
