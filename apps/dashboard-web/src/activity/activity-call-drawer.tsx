import { useQuery } from "@tanstack/react-query";
import { useState } from "react";
import type { ActivityAttempt, ActivityCallDetail } from "../api/api-types.js";
import { CopyButton } from "../components/copy-button.js";
import { Dialog } from "../components/dialog.js";
import { ErrorNotice } from "../components/error-notice.js";
import { Facts } from "../components/facts.js";
import { LoadingState } from "../components/loading-state.js";
import { type BadgeTone, StatusBadge } from "../components/status-badge.js";
import { isApiError } from "../api/api-error.js";
import { formatDateTime } from "../format/format-date-time.js";
import { formatMicros } from "../format/format-micros.js";
import { formatDuration, formatNumber } from "../format/format-number.js";
import { useSession } from "../session/session-context.js";
import { CallStatus, servedModelOf } from "./activity-calls-table.js";
import { activityCallQuery, activityContentQuery, type ActivitySessionKey } from "./activity-requests.js";
import { describeBudgetOutcome } from "./describe-activity-filters.js";

const outcomeTones: Record<ActivityAttempt["outcome"], BadgeTone> = { served: "success", retried: "warning", fell_back: "warning", failed: "danger" };
const outcomeLabels: Record<ActivityAttempt["outcome"], string> = { served: "served", retried: "retried", fell_back: "fell back", failed: "failed" };

/** Names for the ids a call holds. */
export interface CallNames {
  project(id: string | null): string;
  key(id: string | null): string;
  team(id: string | null): string;
  member(id: string | null): string;
  connection(id: string | null): string;
  budget(id: string): string;
}

/** Each provider attempt in order: the target, its answer, how long it took and what became of it. */
function AttemptsTimeline(props: { attempts: readonly ActivityAttempt[]; names: CallNames }) {
  if (props.attempts.length === 0) return <p className="small muted">The call never reached a provider.</p>;
  return (
    <ol className="timeline" aria-label="Attempts">
      {props.attempts.map((attempt, index) => (
        <li key={index} className={`timeline-item ${attempt.outcome}`} data-testid="activity-attempt">
          <div className="timeline-head">
            <strong>Attempt {index + 1}</strong> <StatusBadge tone={outcomeTones[attempt.outcome]}>{outcomeLabels[attempt.outcome]}</StatusBadge>
            {attempt.reason ? <span className="small muted"> because {attempt.reason.replaceAll("_", " ")}</span> : null}
          </div>
          <div className="small">
            <span className="mono">{[attempt.provider, attempt.model].filter(Boolean).join("/") || "–"}</span>
            {attempt.connection_id ? <span className="muted"> via {props.names.connection(attempt.connection_id)}</span> : null}
          </div>
          <div className="small muted">
            {attempt.status === null ? "no answer" : `status ${attempt.status}`}
            {attempt.error_code ? ` (${attempt.error_code})` : ""} · {formatDuration(attempt.latency_ms)}
          </div>
        </li>
      ))}
    </ol>
  );
}

/** Renders captured content: JSON indented, text as it is. */
function ContentBlock(props: { title: string; value: unknown }) {
  const text = typeof props.value === "string" ? props.value : JSON.stringify(props.value, null, 2);
  return (
    <div className="stack-tight">
      <h4>{props.title}</h4>
      {props.value === null || props.value === undefined ? (
        <p className="small muted">Nothing captured.</p>
      ) : (
        // A scrolling box the keyboard can reach, named for screen readers.
        <pre className="content-block" role="region" tabIndex={0} aria-label={props.title}>
          {text}
        </pre>
      )}
    </div>
  );
}

/** The captured request and response, read only when asked for (each read is audited). */
function CapturedContent(props: { requestId: string }) {
  const [shown, setShown] = useState(false);
  const content = useQuery({ ...activityContentQuery(props.requestId), enabled: shown });
  if (!shown) {
    return (
      <div className="stack-tight">
        <p className="small muted">Reading the content is written to the audit log.</p>
        <div>
          <button type="button" className="button" onClick={() => setShown(true)}>
            Show the request and response
          </button>
        </div>
      </div>
    );
  }
  if (content.isPending) return <LoadingState label="Loading the content…" />;
  if (content.isError) {
    if (isApiError(content.error) && content.error.code === "content_not_captured") return <p className="small muted">No content is kept for this call any more (it expired or was never captured).</p>;
    return <ErrorNotice error={content.error} title="Could not load the content" onRetry={() => void content.refetch()} />;
  }
  return (
    <div className="stack-tight" data-testid="activity-content">
      {content.data.truncated ? (
        <div className="notice warning" role="status">
          <strong className="notice-title">Truncated</strong>
          <span>The call was larger than the project's capture limit: only its start is kept.</span>
        </div>
      ) : null}
      <p className="small muted">Captured {formatDateTime(content.data.captured_at)}, after redaction guardrails.</p>
      <ContentBlock title="Request" value={content.data.request} />
      <ContentBlock title="Response" value={content.data.response} />
    </div>
  );
}

/** The body of the drawer once the call is loaded. */
function CallDetails(props: { call: ActivityCallDetail; names: CallNames; onOpenSession: (session: ActivitySessionKey) => void }) {
  const { call, names } = props;
  const { can } = useSession();
  const metadata = Object.entries(call.metadata ?? {});
  return (
    <div className="stack" data-testid="activity-detail">
      <div className="call-summary">
        <CallStatus status={call.status} errorCode={call.error_code} />
        <span className="mono">{servedModelOf(call)}</span>
        <span className="muted small">{call.endpoint}</span>
        <span className="muted small">{formatDateTime(call.occurred_at)}</span>
      </div>
      <div className="secret-box small">
        <code>{call.request_id}</code>
        <CopyButton text={call.request_id} label="Copy request id" />
      </div>
      {call.error ? (
        <div className="notice error" role="note">
          <strong className="notice-title">{call.error.code}</strong>
          <span>{call.error.message}</span>
        </div>
      ) : null}
      <section className="stack-tight" aria-labelledby="call-attempts">
        <h3 id="call-attempts">Attempts</h3>
        <AttemptsTimeline attempts={call.attempts} names={names} />
      </section>
      <section className="stack-tight" aria-labelledby="call-timings">
        <h3 id="call-timings">Timings</h3>
        <Facts
          label="Timings"
          items={[
            ["Total", formatDuration(call.timings.total_ms)],
            ["Time to first byte", formatDuration(call.timings.time_to_first_byte_ms)],
            ["Gateway overhead", formatDuration(call.timings.gateway_overhead_ms)],
          ]}
        />
      </section>
      <section className="stack-tight" aria-labelledby="call-tokens">
        <h3 id="call-tokens">Tokens and cost</h3>
        <Facts
          label="Tokens and cost"
          items={[
            ["Input", formatNumber(call.input_tokens)],
            ["Output", formatNumber(call.output_tokens)],
            ["Reasoning (of output)", formatNumber(call.reasoning_tokens)],
            ["Cache read", formatNumber(call.cache_read_tokens)],
            ["Cache write", formatNumber(call.cache_write_tokens)],
            ["Cost", formatMicros(call.cost_micros)],
            ["Budget", call.budget_outcome ? describeBudgetOutcome(call.budget_outcome, names.budget) : "–"],
            ["Rate limit", call.rate_limit_outcome === "limited" ? "refused by a rate limit" : "–"],
          ]}
        />
      </section>
      <section className="stack-tight" aria-labelledby="call-caller">
        <h3 id="call-caller">Caller</h3>
        <Facts
          label="Caller"
          items={[
            ["Project", names.project(call.project_id)],
            ["API key", names.key(call.api_key_id)],
            ["Team", names.team(call.team_id)],
            ["User", names.member(call.user_id)],
            ["Client", call.client_label ? `${call.client_label}${call.client_version ? ` ${call.client_version}` : ""}` : "–"],
            [
              "Session",
              call.session_id ? (
                <button type="button" className="button link" onClick={() => props.onOpenSession({ sessionId: call.session_id!, projectId: call.project_id, apiKeyId: call.api_key_id })}>
                  {call.session_id}
                </button>
              ) : (
                "–"
              ),
            ],
          ]}
        />
      </section>
      <section className="stack-tight" aria-labelledby="call-guardrails">
        <h3 id="call-guardrails">Guardrails</h3>
        {call.guardrail_flags.length === 0 ? (
          <p className="small muted">No guardrail flagged this call.</p>
        ) : (
          <ul className="chips" aria-label="Guardrail flags">
            {call.guardrail_flags.map((flag) => (
              <li key={flag}>
                <StatusBadge tone="warning">{flag}</StatusBadge>
              </li>
            ))}
          </ul>
        )}
      </section>
      <section className="stack-tight" aria-labelledby="call-metadata">
        <h3 id="call-metadata">Metadata</h3>
        {metadata.length === 0 ? <p className="small muted">No metadata.</p> : <Facts label="Metadata" items={metadata.map(([key, value]) => [key, <span className="mono">{value}</span>])} />}
      </section>
      {can("get /api/activity/{request_id}/content") ? (
        <section className="stack-tight" aria-labelledby="call-content">
          <h3 id="call-content">Content</h3>
          {call.has_content ? <CapturedContent requestId={call.request_id} /> : <p className="small muted">Not captured: the project does not capture content, or this call's content has expired.</p>}
        </section>
      ) : null}
    </div>
  );
}

/** A side drawer with all that is recorded of one call. */
export function ActivityCallDrawer(props: { requestId: string | null; names: CallNames; onClose: () => void; onOpenSession: (session: ActivitySessionKey) => void }) {
  const call = useQuery({ ...activityCallQuery(props.requestId ?? ""), enabled: props.requestId !== null });
  return (
    <Dialog open={props.requestId !== null} title="Call details" onClose={props.onClose} drawer>
      {call.isPending ? (
        <LoadingState label="Loading the call…" rows={8} />
      ) : call.isError ? (
        <ErrorNotice error={call.error} title="Could not load this call" onRetry={() => void call.refetch()} />
      ) : (
        <CallDetails call={call.data} names={props.names} onOpenSession={props.onOpenSession} />
      )}
    </Dialog>
  );
}
