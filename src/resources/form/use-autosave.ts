/**
 * Autosave of an edit form whose resource asks for it (`autosave: true`, CMS entries): a few
 * seconds after the last change, the changed fields go to the server as a draft update that
 * adds no version (`?autosave=true`), naming the revision the form is based on. A newer
 * revision on the server stops autosaving (Save then shows the conflict); values the server
 * refuses wait for the user's Save, which shows the messages on the fields.
 */
import { type HttpError, useUpdate } from "@refinedev/core";
import { useCallback, useEffect, useRef, useState } from "react";
import type { ResourceDefinition } from "../../../resources/contract";
import { type FormData, toUpdateBody } from "../form-schema";
import type { ResourceRecord } from "../types";

/** Quiet time after the last change before the draft is saved. */
export const AUTOSAVE_DELAY_MS = 2500;

export type AutosaveState =
  | { kind: "idle" }
  | { kind: "saving" }
  | { kind: "saved"; at: Date }
  | { kind: "stale"; message: string }
  | { kind: "waiting"; message: string };

export function useAutosave(
  def: ResourceDefinition,
  /** The record the form is based on (the opened one, then each autosaved answer). */
  base: () => ResourceRecord | undefined,
  onSaved: (record: ResourceRecord) => void,
) {
  const [state, setState] = useState<AutosaveState>({ kind: "idle" });
  const timer = useRef<ReturnType<typeof setTimeout>>(undefined);
  const latest = useRef<FormData | null>(null);
  const running = useRef<Promise<void> | null>(null);
  const stopped = useRef(false);
  const { mutateAsync } = useUpdate<ResourceRecord, HttpError, FormData>();

  const flush = useCallback(async (): Promise<void> => {
    clearTimeout(timer.current);
    if (running.current) await running.current;
    const data = latest.current;
    const record = base();
    if (!data || !record || stopped.current || !def.autosave) return;
    latest.current = null;
    const body = toUpdateBody(data, record, def.schema);
    if (Object.keys(body).length === 0) return;
    if (def.revisionField) body[def.revisionField] = record[def.revisionField];
    setState({ kind: "saving" });
    running.current = (async () => {
      try {
        const saved = await mutateAsync({
          resource: def.name,
          id: record.id,
          values: body,
          meta: { query: { autosave: true } },
          successNotification: false,
          errorNotification: false,
          invalidates: [],
        });
        onSaved(saved.data);
        setState({ kind: "saved", at: new Date() });
      } catch (error) {
        const status = (error as HttpError).statusCode;
        if (status === 409) {
          stopped.current = true;
          setState({ kind: "stale", message: "Someone else saved a newer version: Save to compare" });
        } else if (status === 400) {
          setState({ kind: "waiting", message: "Not saved automatically: some values need fixing" });
        } else {
          // Offline or a server hiccup: the next change tries again; Save always can.
          latest.current ??= data;
          setState({ kind: "waiting", message: "Not saved automatically yet" });
        }
      } finally {
        running.current = null;
      }
    })();
    await running.current;
  }, [base, def, mutateAsync, onSaved]);

  /** The form's values changed: save them once the user pauses. */
  const changed = useCallback(
    (data: FormData) => {
      if (!def.autosave || stopped.current) return;
      latest.current = data;
      clearTimeout(timer.current);
      timer.current = setTimeout(() => void flush(), AUTOSAVE_DELAY_MS);
    },
    [def.autosave, flush],
  );

  /** Before an explicit Save: nothing pending, nothing in flight. */
  const settle = useCallback(async () => {
    clearTimeout(timer.current);
    latest.current = null;
    if (running.current) await running.current;
  }, []);

  /** The form was reloaded (after a conflict): autosave starts again from the new record. */
  const reset = useCallback(() => {
    clearTimeout(timer.current);
    latest.current = null;
    stopped.current = false;
    setState({ kind: "idle" });
  }, []);

  useEffect(() => () => clearTimeout(timer.current), []);

  return { state, changed, settle, reset };
}
