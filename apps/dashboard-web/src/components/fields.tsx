import type { KeyboardEvent, ReactNode } from "react";
import { FormField } from "./form-field.js";

/** A labelled text input (text, email, password, url, number, datetime-local). */
export function TextField(props: {
  label: string;
  value: string;
  onChange: (value: string) => void;
  error?: string | undefined;
  hint?: ReactNode;
  type?: "text" | "email" | "password" | "url" | "number" | "datetime-local" | "search";
  placeholder?: string;
  autoComplete?: string;
  required?: boolean;
  disabled?: boolean;
  autoFocus?: boolean;
  name?: string;
  step?: string;
  min?: number;
}) {
  return (
    <FormField label={props.label} error={props.error} hint={props.hint}>
      {(control) => (
        <input
          {...control}
          name={props.name}
          type={props.type ?? "text"}
          value={props.value}
          placeholder={props.placeholder}
          autoComplete={props.autoComplete ?? "off"}
          required={props.required}
          disabled={props.disabled}
          autoFocus={props.autoFocus}
          step={props.step}
          min={props.min}
          onChange={(event) => props.onChange(event.target.value)}
        />
      )}
    </FormField>
  );
}

/** A labelled multi-line input. */
export function TextAreaField(props: {
  label: string;
  value: string;
  onChange: (value: string) => void;
  error?: string | undefined;
  hint?: ReactNode;
  rows?: number;
  placeholder?: string;
  monospace?: boolean;
  onKeyDown?: (event: KeyboardEvent<HTMLTextAreaElement>) => void;
}) {
  return (
    <FormField label={props.label} error={props.error} hint={props.hint}>
      {(control) => (
        <textarea
          {...control}
          rows={props.rows ?? 4}
          value={props.value}
          placeholder={props.placeholder}
          className={props.monospace ? "mono" : undefined}
          onKeyDown={props.onKeyDown}
          onChange={(event) => props.onChange(event.target.value)}
        />
      )}
    </FormField>
  );
}

/** One option of a {@link SelectField}. */
export interface SelectOption {
  value: string;
  label: string;
}

/** A labelled select. */
export function SelectField(props: { label: string; value: string; onChange: (value: string) => void; options: readonly SelectOption[]; error?: string | undefined; hint?: ReactNode; disabled?: boolean; placeholder?: string }) {
  return (
    <FormField label={props.label} error={props.error} hint={props.hint}>
      {(control) => (
        <select {...control} value={props.value} disabled={props.disabled} onChange={(event) => props.onChange(event.target.value)}>
          {props.placeholder !== undefined ? <option value="">{props.placeholder}</option> : null}
          {props.options.map((option) => (
            <option key={option.value} value={option.value}>
              {option.label}
            </option>
          ))}
        </select>
      )}
    </FormField>
  );
}

/** A checkbox with its label on the right. */
export function CheckboxField(props: { label: string; checked: boolean; onChange: (checked: boolean) => void; hint?: ReactNode; disabled?: boolean }) {
  return (
    <div className="field">
      <label className="checkbox">
        <input type="checkbox" checked={props.checked} disabled={props.disabled} onChange={(event) => props.onChange(event.target.checked)} />
        {props.label}
      </label>
      {props.hint ? <span className="hint">{props.hint}</span> : null}
    </div>
  );
}

/** A group of checkboxes over a set of values (events, detectors, projects). */
export function CheckboxGroup(props: { legend: string; options: readonly SelectOption[]; values: readonly string[]; onChange: (values: string[]) => void; error?: string | undefined; hint?: ReactNode }) {
  return (
    <fieldset>
      <legend>{props.legend}</legend>
      <div className="form-row">
        {props.options.map((option) => (
          <label key={option.value} className="checkbox">
            <input
              type="checkbox"
              checked={props.values.includes(option.value)}
              onChange={(event) => props.onChange(event.target.checked ? [...props.values, option.value] : props.values.filter((value) => value !== option.value))}
            />
            {option.label}
          </label>
        ))}
      </div>
      {props.hint ? <span className="hint">{props.hint}</span> : null}
      {props.error ? <span className="error">{props.error}</span> : null}
    </fieldset>
  );
}
