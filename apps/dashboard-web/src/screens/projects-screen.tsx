import { useQuery } from "@tanstack/react-query";
import type { Project } from "../api/api-types.js";
import { callApi, dashboardClient } from "../api/dashboard-client.js";
import { dashboardQueries } from "../api/dashboard-queries.js";
import { ActionButton } from "../components/action-button.js";
import { ConfirmDialog } from "../components/confirm-dialog.js";
import { EmptyState } from "../components/empty-state.js";
import { CheckboxField, TextAreaField, TextField } from "../components/fields.js";
import { FormDialog } from "../components/form-dialog.js";
import { PageHeader } from "../components/page-header.js";
import { ResourceTable } from "../components/resource-table.js";
import { StatusBadge } from "../components/status-badge.js";
import { useConfirmedMutation } from "../components/use-confirmed-mutation.js";
import { useEditDialog } from "../components/use-edit-dialog.js";
import { useSchemaForm } from "../components/use-schema-form.js";
import { formatDateTime } from "../format/format-date-time.js";

/** Projects of the organization: create, edit (content capture), delete. */
export function ProjectsScreen() {
  const projects = useQuery(dashboardQueries.projects());
  const editor = useEditDialog<Project>();
  const remove = useConfirmedMutation({
    mutationFn: (project: Project) => callApi(dashboardClient.DELETE("/api/projects/{project_id}", { params: { path: { project_id: project.id } } })),
    invalidate: [["projects"], ["api-keys"]],
  });
  return (
    <>
      <PageHeader
        title="Projects"
        description="Projects group API keys; policies, budgets and rate limits can apply to a whole project."
        actions={<ActionButton operation="post /api/projects" tone="primary" onClick={editor.create}>Create project</ActionButton>}
      />
      <ResourceTable
        query={projects}
        label="projects"
        empty={<EmptyState title="No projects yet" action={<ActionButton operation="post /api/projects" tone="primary" onClick={editor.create}>Create a project</ActionButton>} />}
        tableLabel="Projects"
        columns={["Name", "Description", "Content capture", "Created"]}
        actions
      >
        {(project) => (
          <tr key={project.id}>
            <td>{project.name}</td>
            <td className="muted">{project.description || "–"}</td>
            <td>
              {project.capture_content ? <StatusBadge tone="warning">stored</StatusBadge> : <StatusBadge>off</StatusBadge>}
              <div className="small muted">
                calls kept {project.activity_retention_days} days{project.capture_content ? `, content ${project.content_retention_days} days` : ""}
              </div>
            </td>
            <td>{formatDateTime(project.created_at)}</td>
            <td className="row-actions">
              <ActionButton operation="patch /api/projects/{project_id}" small onClick={() => editor.edit(project)}>Edit</ActionButton>
              <ActionButton operation="delete /api/projects/{project_id}" small tone="danger" onClick={() => remove.ask(project)}>Delete</ActionButton>
            </td>
          </tr>
        )}
      </ResourceTable>
      {editor.open ? <ProjectDialog project={editor.item} onClose={editor.close} /> : null}
      <ConfirmDialog {...remove.dialog} title="Delete this project?" confirmLabel="Delete project">
        <p>
          <strong>{remove.item?.name}</strong> and its API keys are deleted; calls with those keys are refused.
        </p>
      </ConfirmDialog>
    </>
  );
}

function ProjectDialog(props: { project: Project | null; onClose: () => void }) {
  const form = useSchemaForm({
    operation: props.project ? "patch /api/projects/{project_id}" : "post /api/projects",
    initial: {
      name: props.project?.name ?? "",
      description: props.project?.description ?? "",
      capture_content: props.project?.capture_content ?? false,
      activity_retention_days: String(props.project?.activity_retention_days ?? 30),
      content_retention_days: String(props.project?.content_retention_days ?? 7),
      content_max_bytes: String(props.project?.content_max_bytes ?? 65_536),
    },
    // Numbers go as typed (a blank or a fraction is refused by the API's schema, on its field).
    toBody: (values) => ({
      body: {
        name: values.name.trim(),
        description: values.description.trim() || null,
        capture_content: values.capture_content,
        activity_retention_days: Number(values.activity_retention_days.trim() || Number.NaN),
        content_retention_days: Number(values.content_retention_days.trim() || Number.NaN),
        content_max_bytes: Number(values.content_max_bytes.trim() || Number.NaN),
      },
    }),
    send: (body: { name: string; description: string | null; capture_content: boolean; activity_retention_days: number; content_retention_days: number; content_max_bytes: number }) =>
      props.project
        ? callApi(dashboardClient.PATCH("/api/projects/{project_id}", { params: { path: { project_id: props.project.id } }, body }))
        : callApi(dashboardClient.POST("/api/projects", { body })),
    invalidate: [["projects"]],
    onSuccess: props.onClose,
  });
  return (
    <FormDialog title={props.project ? "Edit project" : "Create project"} submitLabel={props.project ? "Save" : "Create project"} form={form} onClose={props.onClose}>
      <TextField label="Name" {...form.field("name")} autoFocus />
      <TextAreaField label="Description" {...form.field("description")} rows={2} />
      <CheckboxField
        label="Store request and response content on usage events"
        checked={form.values.capture_content}
        onChange={(checked) => form.set("capture_content", checked)}
        hint="Off by default. Decisions are never stored. Owners and administrators read it in Activity; each read is audited."
      />
      <div className="form-row">
        <TextField label="Keep calls (days)" type="number" min={1} {...form.field("activity_retention_days")} hint="How long the project's calls stay in Activity." />
        <TextField label="Keep content (days)" type="number" min={1} {...form.field("content_retention_days")} />
        <TextField label="Content cap per call (bytes)" type="number" min={1024} {...form.field("content_max_bytes")} hint="Longer content is cut and marked truncated." />
      </div>
    </FormDialog>
  );
}
