import { useMutation, useQueryClient } from "@tanstack/react-query";
import { type FormEvent, useState } from "react";
import { isApiError } from "../api/api-error.js";
import type { DashboardOperation } from "../api/dashboard-operation.js";
import { validateRequestBody } from "../api/validate-request-body.js";

/** What a form's `toBody` answers: the request body, plus errors of fields it could not convert. */
export interface FormBody {
  body: unknown;
  errors?: Record<string, string>;
}

/** The fields of a form that hold any string (text inputs, text areas, free selects). */
export type StringField<Values> = { [Name in keyof Values]: string extends Values[Name] ? (Values[Name] extends string ? Name : never) : never }[keyof Values];

/** What a text control needs to edit one field: its value, its setter and its error. */
export interface FieldBinding {
  value: string;
  onChange: (value: string) => void;
  error: string | undefined;
}

/** The state and actions of a {@link useSchemaForm} form. */
export interface SchemaForm<Values> {
  values: Values;
  /** Field errors keyed by the API's param path (`name`, `targets[0].model`). */
  errors: Record<string, string>;
  /** Errors no field of the form shows, and failures that are not about a field (with request id). */
  formError: unknown;
  pending: boolean;
  /** The error of a field or of anything inside it (`headers` covers `headers.X-Api-Key`). */
  errorFor(path: string): string | undefined;
  set<Name extends keyof Values>(name: Name, value: Values[Name]): void;
  /** Binds a control to a string field: `<TextField label="Name" {...form.field("name")} />`. */
  field(name: StringField<Values>): FieldBinding;
  update(change: (values: Values) => Values): void;
  submit(event?: FormEvent): void;
  reset(values: Values): void;
}

/**
 * A form validated with the API's own request schema before it is sent (the same rules, from
 * the OpenAPI document); what the API still refuses comes back onto the same fields.
 */
export function useSchemaForm<Values extends object, Result>(options: {
  operation: DashboardOperation;
  initial: Values;
  toBody: (values: Values) => FormBody;
  send: (body: any) => Promise<Result>;
  /** Queries (by key prefix) refreshed after a successful send, before `onSuccess`, so every screen showing the resource updates. */
  invalidate?: readonly (readonly string[])[];
  onSuccess?: (result: Result) => void;
  /** Called after a failed send (after the errors were placed on their fields). */
  onError?: (error: unknown) => void;
  /** Maps an API param path to the form's field path when they differ (e.g. `amount_micros` -> `amount`). */
  fieldOf?: Record<string, string>;
}): SchemaForm<Values> {
  const queryClient = useQueryClient();
  const [values, setValues] = useState(options.initial);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [formError, setFormError] = useState<unknown>(null);
  const rename = (found: Record<string, string>) => {
    const renamed: Record<string, string> = {};
    for (const [path, message] of Object.entries(found)) renamed[options.fieldOf?.[path] ?? path] = message;
    return renamed;
  };
  const known = (path: string) => path !== "" && (Object.keys(options.initial) as string[]).includes(path.split(/[.[]/)[0]!);
  const mutation = useMutation({
    mutationFn: options.send,
    onSuccess: async (result: Result) => {
      await Promise.all((options.invalidate ?? []).map((queryKey) => queryClient.invalidateQueries({ queryKey })));
      options.onSuccess?.(result);
    },
    onError: (error: unknown) => {
      const fieldErrors = isApiError(error) ? rename(error.fieldErrors()) : {};
      setErrors(fieldErrors);
      const allShown = Object.keys(fieldErrors).length > 0 && Object.keys(fieldErrors).every(known);
      setFormError(allShown ? null : error);
      options.onError?.(error);
    },
  });
  const errorFor = (path: string) => errors[path] ?? Object.entries(errors).find(([key]) => key.startsWith(`${path}.`) || key.startsWith(`${path}[`))?.[1];
  const set = <Name extends keyof Values>(name: Name, value: Values[Name]) => setValues((current) => ({ ...current, [name]: value }));
  return {
    values,
    errors,
    formError,
    pending: mutation.isPending,
    errorFor,
    set,
    field: (name) => ({ value: values[name] as string, onChange: (value) => set(name, value as Values[typeof name]), error: errorFor(name as string) }),
    update: (change) => setValues(change),
    reset: (next) => {
      setValues(next);
      setErrors({});
      setFormError(null);
    },
    submit(event) {
      event?.preventDefault();
      const converted = options.toBody(values);
      const found = { ...rename(validateRequestBody(options.operation, converted.body)), ...(converted.errors ?? {}) };
      setErrors(found);
      const hidden = Object.entries(found).filter(([path]) => !known(path));
      setFormError(hidden.length > 0 ? new Error(hidden.map(([path, message]) => (path ? `${path}: ${message}` : message)).join(" ")) : null);
      if (Object.keys(found).length > 0) {
        // Move focus to the first invalid field, so keyboard and screen-reader users land on it.
        requestAnimationFrame(() => (document.querySelector('[aria-invalid="true"]') as HTMLElement | null)?.focus());
        return;
      }
      mutation.mutate(converted.body);
    },
  };
}
