import { useQuery } from "@tanstack/react-query";
import { Link } from "react-router";
import { dashboardQueries } from "../api/dashboard-queries.js";
import { ErrorNotice } from "../components/error-notice.js";
import { LoadingState } from "../components/loading-state.js";
import { PageHeader } from "../components/page-header.js";
import { Stat } from "../components/stat.js";
import { formatMicros } from "../format/format-micros.js";
import { formatNumber, formatPercent } from "../format/format-number.js";
import { useSession } from "../session/session-context.js";

/** The landing page: the last 24 hours at a glance, budgets near their limit, and where to start. */
export function OverviewScreen() {
  const { session, can } = useSession();
  const usage = useQuery({ ...dashboardQueries.usageSeries({ interval: "hour", group_by: "none" }), enabled: can("get /api/usage/series") });
  const keys = useQuery({ ...dashboardQueries.apiKeys({ status: "active", limit: 100 }), enabled: can("get /api/api-keys") });
  const connections = useQuery({ ...dashboardQueries.connections(), enabled: can("get /api/connections") });
  const budgets = useQuery({ ...dashboardQueries.budgets(), enabled: can("get /api/budgets") });
  const statuses = useQuery({ ...dashboardQueries.budgetStatuses(), enabled: can("get /api/usage/budgets") });
  const totals = (usage.data?.data ?? []).reduce(
    (sum, point) => ({ requests: sum.requests + point.request_count, errors: sum.errors + point.error_count, cost: sum.cost + point.cost_micros, tokens: sum.tokens + point.input_tokens + point.output_tokens }),
    { requests: 0, errors: 0, cost: 0, tokens: 0 },
  );
  const budgetNames = new Map((budgets.data?.data ?? []).map((budget) => [budget.id, budget.name]));
  const nearLimit = (statuses.data?.data ?? []).filter((status) => status.used_fraction >= 0.8);
  return (
    <>
      <PageHeader documentTitle="Overview" title={`Welcome, ${session.person.name || session.person.email}`} description={`${session.organization.name} · signed in as ${session.user.role_label.toLowerCase()}`} />
      {can("get /api/usage/series") ? (
        <section className="card" aria-labelledby="last-day">
          <h2 id="last-day">Last 24 hours</h2>
          {usage.isPending ? (
            <LoadingState />
          ) : usage.isError ? (
            <ErrorNotice error={usage.error} onRetry={() => void usage.refetch()} />
          ) : (
            <div className="grid">
              <Stat label="Requests" value={formatNumber(totals.requests)} />
              <Stat label="Error rate" value={totals.requests > 0 ? formatPercent(totals.errors / totals.requests) : "–"} />
              <Stat label="Spend" value={formatMicros(totals.cost)} />
              <Stat label="Tokens" value={formatNumber(totals.tokens)} />
              {keys.data ? <Stat label="Active API keys" value={formatNumber(keys.data.data.length) + (keys.data.has_more ? "+" : "")} /> : null}
              {connections.data ? <Stat label="Connections" value={formatNumber(connections.data.data.length)} /> : null}
            </div>
          )}
          <p className="small">
            <Link to="/usage">See usage over time</Link>
          </p>
        </section>
      ) : null}
      {nearLimit.length > 0 ? (
        <div className="notice warning" role="status">
          <strong className="notice-title">Budgets near their limit</strong>
          {nearLimit.map((status) => (
            <span key={status.budget_id}>
              {budgetNames.get(status.budget_id) ?? status.budget_id}: {formatMicros(status.spent_micros)} of {formatMicros(status.amount_micros)} ({formatPercent(status.used_fraction)})
            </span>
          ))}
          <Link to="/budgets">Open budgets</Link>
        </div>
      ) : null}
      <section className="card" aria-labelledby="start">
        <h2 id="start">Get started</h2>
        <ol className="stack">
          {can("post /api/connections") ? (
            <li>
              <Link to="/connections">Connect a provider</Link> (OpenAI-compatible, Anthropic or System One). The built-in <code>demo</code> connection answers offline.
            </li>
          ) : null}
          {can("post /api/api-keys") ? (
            <li>
              <Link to="/api-keys">Create an API key</Link> and call the gateway with it.
            </li>
          ) : null}
          {can("post /api/playground/chat") ? (
            <li>
              <Link to="/playground">Try a model in the playground</Link> as one of your keys.
            </li>
          ) : null}
          {can("post /api/budgets") ? (
            <li>
              <Link to="/budgets">Set a budget</Link> and <Link to="/rate-limits">rate limits</Link>.
            </li>
          ) : null}
          {can("post /api/invitations") ? (
            <li>
              <Link to="/members">Invite your team</Link>.
            </li>
          ) : null}
          <li>
            Read the API: <a href="/openapi.json">OpenAPI document</a>.
          </li>
        </ol>
      </section>
    </>
  );
}
