import { useQuery } from "@tanstack/react-query";
import { useState } from "react";
import { Link } from "react-router";
import { dashboardQueries } from "../api/dashboard-queries.js";
import { DataTable } from "../components/data-table.js";
import { EmptyState } from "../components/empty-state.js";
import { TextField } from "../components/fields.js";
import { PageHeader } from "../components/page-header.js";
import { QueryView } from "../components/query-view.js";
import { StatusBadge } from "../components/status-badge.js";
import { useSession } from "../session/session-context.js";

/** Every model callers can address: the connections' models and the routing aliases (read-only; edit them on their screens). */
export function ModelsScreen() {
  const { can } = useSession();
  const connections = useQuery(dashboardQueries.connections());
  const routes = useQuery({ ...dashboardQueries.routes(), enabled: can("get /api/routes") });
  const [filter, setFilter] = useState("");
  const needle = filter.trim().toLowerCase();
  return (
    <>
      <PageHeader
        title="Models"
        description={
          <>
            What a key can name in <code>model</code>: <code>&lt;connection&gt;/&lt;vendor&gt;/&lt;model&gt;</code> from the <Link to="/connections">connections</Link>, or an alias from the{" "}
            <Link to="/routes">routes</Link>. <Link to="/policies">Policies</Link> decide which ones each key may use.
          </>
        }
      />
      <div className="filters">
        <TextField label="Filter" type="search" value={filter} onChange={setFilter} placeholder="gpt, claude, demo…" />
      </div>
      <QueryView query={connections} label="models">
        {(list) => {
          const models = list.data.flatMap((connection) =>
            connection.models.map((model) => ({ id: `${connection.name}/${model}`, model, connection, price: connection.prices[model], upstream: connection.upstream_model_names[model] })),
          );
          const shown = models.filter((entry) => entry.id.toLowerCase().includes(needle));
          return shown.length === 0 ? (
            <EmptyState title={models.length === 0 ? "No models yet" : "No model matches"}>{models.length === 0 ? "Add models to a connection to make them callable." : null}</EmptyState>
          ) : (
            <DataTable label="Models" columns={["Model id", "Connection", "Sent upstream as", { label: "Input $/M", numeric: true }, { label: "Output $/M", numeric: true }, "Status"]}>
              {shown.map((entry) => (
                <tr key={entry.id}>
                  <td className="mono">{entry.id}</td>
                  <td>{entry.connection.name}</td>
                  <td className="mono small">{entry.upstream ?? entry.model.slice(entry.model.indexOf("/") + 1)}</td>
                  <td className="numeric">{entry.price ? entry.price.input : <span className="muted">default</span>}</td>
                  <td className="numeric">{entry.price ? entry.price.output : <span className="muted">default</span>}</td>
                  <td>{entry.connection.enabled ? <StatusBadge tone="success">enabled</StatusBadge> : <StatusBadge tone="warning">connection disabled</StatusBadge>}</td>
                </tr>
              ))}
            </DataTable>
          );
        }}
      </QueryView>
      {routes.data && routes.data.data.length > 0 ? (
        <section className="card" aria-labelledby="aliases">
          <h2 id="aliases">Aliases</h2>
          <ul>
            {routes.data.data
              .filter((route) => route.alias.toLowerCase().includes(needle))
              .map((route) => (
                <li key={route.id}>
                  <code>{route.alias}</code> → {route.targets.map((target) => target.model).join(", ")} <span className="muted small">({route.strategy})</span>
                </li>
              ))}
          </ul>
        </section>
      ) : null}
    </>
  );
}
