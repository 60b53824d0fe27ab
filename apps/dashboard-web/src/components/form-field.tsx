import { type ReactNode, useId } from "react";

/** Props every field control receives from {@link FormField}: its id and the ids describing it. */
export interface FieldControlProps {
  id: string;
  "aria-invalid": boolean;
  "aria-describedby"?: string;
}

/**
 * A labelled form field: label, control, hint and error, wired for assistive technology (the
 * control is described by its hint and error and marked invalid when there is one).
 */
export function FormField(props: { label: string; error?: string | undefined; hint?: ReactNode; children: (control: FieldControlProps) => ReactNode }) {
  const id = useId();
  const hintId = `${id}-hint`;
  const errorId = `${id}-error`;
  const describedBy = [props.hint ? hintId : null, props.error ? errorId : null].filter(Boolean).join(" ");
  return (
    <div className="field">
      <label htmlFor={id}>{props.label}</label>
      {props.children({ id, "aria-invalid": Boolean(props.error), ...(describedBy ? { "aria-describedby": describedBy } : {}) })}
      {props.hint ? (
        <span className="hint" id={hintId}>
          {props.hint}
        </span>
      ) : null}
      {props.error ? (
        <span className="error" id={errorId}>
          {props.error}
        </span>
      ) : null}
    </div>
  );
}
