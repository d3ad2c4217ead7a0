/**
 * The form as the public will see it, drawn by the public renderer itself (src/forms-public):
 * the same HTML, the same logic and checks as one types, and a button that says what would be
 * sent instead of sending. Answers typed in the preview stay while the builder changes the form.
 */
import { useEffect, useMemo, useRef, useState } from "react";
import type { FormDefinition } from "../../../schemas/form-definition";
import { enhanceForm } from "../../forms-public/enhance";
import { collectAnswers } from "../../forms-public/form-dom";
import { toPublicForm } from "../../forms-public/public-form";
import { renderFormHtml } from "../../forms-public/render";
import "../../forms-public/form.css";

/** Waits this long after the last change before drawing again, so typing stays smooth. */
const REDRAW_DELAY_MS = 250;

interface FormPreviewProps {
  name: string;
  slug: string;
  definition: FormDefinition;
  /** The version the preview says it is (the next one to publish). */
  version?: number;
}

function useSettled<T>(value: T, delay: number): T {
  const [settled, setSettled] = useState(value);
  useEffect(() => {
    const timer = setTimeout(() => setSettled(value), delay);
    return () => clearTimeout(timer);
  }, [value, delay]);
  return settled;
}

export default function FormPreview({ name, slug, definition, version = 0 }: FormPreviewProps) {
  const host = useRef<HTMLDivElement>(null);
  const settled = useSettled(definition, REDRAW_DELAY_MS);
  const form = useMemo(
    () => toPublicForm({ name, slug: slug || "preview" }, version, settled),
    [name, slug, version, settled],
  );
  const answers = useRef<Record<string, unknown>>({});

  useEffect(() => {
    const root = host.current;
    if (!root) return;
    root.innerHTML = renderFormHtml(form, { preview: true, values: answers.current });
    const stop = enhanceForm(root, form, { submitUrl: null });
    const el = root.querySelector<HTMLFormElement>("form.atf");
    const keep = () => {
      if (el) answers.current = collectAnswers(el, form.fields);
    };
    el?.addEventListener("input", keep);
    el?.addEventListener("change", keep);
    return () => {
      el?.removeEventListener("input", keep);
      el?.removeEventListener("change", keep);
      stop();
    };
  }, [form]);

  return (
    <div className="fb-preview">
      <h2 className="fb-preview-title">{name}</h2>
      <div ref={host} />
    </div>
  );
}
