import { useQuery } from "@tanstack/react-query";
import { useState } from "react";
import type { Project } from "../api/api-types.js";
import { callApi, dashboardClient } from "../api/dashboard-client.js";
import { dashboardQueries } from "../api/dashboard-queries.js";
import { ConfirmDialog } from "../components/confirm-dialog.js";
import { EmptyState } from "../components/empty-state.js";
import { CheckboxField, TextAreaField, TextField } from "../components/fields.js";
import { FormDialog } from "../components/form-dialog.js";
import { PageHeader } from "../components/page-header.js";
import { QueryView } from "../components/query-view.js";
import { StatusBadge } from "../components/status-badge.js";
import { useApiMutation } from "../components/use-api-mutation.js";
import { useSchemaForm } from "../components/use-schema-form.js";
import { formatDateTime } from "../format/format-date-time.js";
import { useSession } from "../session/session-context.js";

/** Projects of the organization: create, edit (content capture), delete. */
export function ProjectsScreen() {
  const { can } = useSession();
  const projects = useQuery(dashboardQueries.projects());
  const [editing, setEditing] = useState<Project | "new" | null>(null);
  const [deleting, setDeleting] = useState<Project | null>(null);
  const remove = useApiMutation({
    mutationFn: (project: Project) => callApi(dashboardClient.DELETE("/api/projects/{project_id}", { params: { path: { project_id: project.id } } })),
    invalidate: [["projects"], ["api-keys"]],
    onSuccess: () => setDeleting(null),
  });
  const mayCreate = can("post /api/projects");
  return (
    <>
      <PageHeader
        title="Projects"
        description="Projects group API keys; policies, budgets and rate limits can apply to a whole project."
        actions={mayCreate ? <button type="button" className="button primary" onClick={() => setEditing("new")}>Create project</button> : null}
      />
      <QueryView query={projects} label="projects">
        {(list) =>
          list.data.length === 0 ? (
            <div className="card">
              <EmptyState title="No projects yet" action={mayCreate ? <button type="button" className="button primary" onClick={() => setEditing("new")}>Create a project</button> : null} />
            </div>
          ) : (
            <div className="table-wrap">
              <table aria-label="Projects">
                <thead>
                  <tr>
                    <th scope="col">Name</th>
                    <th scope="col">Description</th>
                    <th scope="col">Content capture</th>
                    <th scope="col">Created</th>
                    <th scope="col"><span className="visually-hidden">Actions</span></th>
                  </tr>
                </thead>
                <tbody>
                  {list.data.map((project) => (
                    <tr key={project.id}>
                      <td>{project.name}</td>
                      <td className="muted">{project.description || "–"}</td>
                      <td>{project.capture_content ? <StatusBadge tone="warning">stored</StatusBadge> : <StatusBadge>off</StatusBadge>}</td>
                      <td>{formatDateTime(project.created_at)}</td>
                      <td className="row-actions">
                        {can("patch /api/projects/{project_id}") ? <button type="button" className="button small" onClick={() => setEditing(project)}>Edit</button> : null}
                        {can("delete /api/projects/{project_id}") ? <button type="button" className="button small danger" onClick={() => setDeleting(project)}>Delete</button> : null}
                      </td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
          )
        }
      </QueryView>
      {editing ? <ProjectDialog project={editing === "new" ? null : editing} onClose={() => setEditing(null)} /> : null}
      <ConfirmDialog
        open={deleting !== null}
        title="Delete this project?"
        confirmLabel="Delete project"
        onClose={() => { setDeleting(null); remove.reset(); }}
        onConfirm={() => deleting && remove.mutate(deleting)}
        pending={remove.isPending}
        error={remove.error}
      >
        <p>
          <strong>{deleting?.name}</strong> and its API keys are deleted; calls with those keys are refused.
        </p>
      </ConfirmDialog>
    </>
  );
}

function ProjectDialog(props: { project: Project | null; onClose: () => void }) {
  const save = useApiMutation({
    mutationFn: (body: { name: string; description: string | null; capture_content: boolean }) =>
      props.project
        ? callApi(dashboardClient.PATCH("/api/projects/{project_id}", { params: { path: { project_id: props.project.id } }, body }))
        : callApi(dashboardClient.POST("/api/projects", { body })),
    invalidate: [["projects"]],
  });
  const form = useSchemaForm({
    operation: props.project ? "patch /api/projects/{project_id}" : "post /api/projects",
    initial: { name: props.project?.name ?? "", description: props.project?.description ?? "", capture_content: props.project?.capture_content ?? false },
    toBody: (values) => ({ body: { name: values.name.trim(), description: values.description.trim() || null, capture_content: values.capture_content } }),
    send: save.mutateAsync,
    onSuccess: props.onClose,
  });
  return (
    <FormDialog title={props.project ? "Edit project" : "Create project"} submitLabel={props.project ? "Save" : "Create project"} form={form} onClose={props.onClose}>
      <TextField label="Name" value={form.values.name} onChange={(value) => form.set("name", value)} error={form.errors.name} autoFocus />
      <TextAreaField label="Description" value={form.values.description} onChange={(value) => form.set("description", value)} error={form.errors.description} rows={2} />
      <CheckboxField
        label="Store request and response content on usage events"
        checked={form.values.capture_content}
        onChange={(checked) => form.set("capture_content", checked)}
        hint="Off by default. Decisions are never stored."
      />
    </FormDialog>
  );
}
