/**
 * A form's draft on its page: the fields in the builder's reducer (spec §4), the settings
 * beside them, the revision the next save sends back, and whether anything is unsaved. Saves
 * refuse what the shared checks already know the server would refuse, put each message of a
 * refused save at its input, and turn a 409 into a conflict the page asks about.
 */
import { App } from "antd";
import { useCallback, useEffect, useMemo, useReducer, useRef, useState } from "react";
import { defaultSettings, type FormDefinition, type FormSettings } from "../../../schemas/form-definition";
import { definitionProblems } from "../../../schemas/form-definition-checks";
import { getErrorMessage, getFieldErrors } from "../../lib/errors";
import { failureStatus } from "../../lib/load-failure";
import { type BuilderField, builderReducer, initialBuilderState } from "./builder-state";
import { cleanField, fieldProblems } from "./field-rules";
import { getDraft, publishForm, saveDraft } from "./forms-api";
import { routeErrors, settingsProblems } from "./settings-rules";

/** Messages of a refused save (or of the checks before it): by field id, and by settings path. */
export interface DraftErrors {
  fields: Record<string, Record<string, string>>;
  settings: Record<string, string>;
  other: string[];
}

const NO_ERRORS: DraftErrors = { fields: {}, settings: {}, other: [] };

const snapshot = (fields: readonly BuilderField[], settings: FormSettings) =>
  JSON.stringify({ fields, settings });

/** Every message that stops this definition from being saved, by where it shows. */
function problemsOf(definition: FormDefinition): DraftErrors {
  const { fields, settings } = definition;
  const shared = routeErrors(definitionProblems(definition));
  const errors: DraftErrors = { fields: {}, settings: { ...shared.settings }, other: shared.other };
  fields.forEach((field, index) => {
    const own = { ...shared.fields[index], ...fieldProblems(field, { fields, index }) };
    if (Object.keys(own).length) errors.fields[field.id] = own;
  });
  for (const [path, message] of Object.entries(settingsProblems(settings, fields)))
    errors.settings[path] = message;
  return errors;
}

const countOf = (errors: DraftErrors) =>
  Object.values(errors.fields).reduce((n, f) => n + Object.keys(f).length, 0) +
  Object.keys(errors.settings).length +
  errors.other.length;

export function useFormDraft(id: string, onChanged: () => unknown) {
  const { message } = App.useApp();
  const [state, dispatch] = useReducer(builderReducer, initialBuilderState);
  const [settings, setSettingsState] = useState<FormSettings>(defaultSettings);
  const [revision, setRevision] = useState<number | null>(null);
  const [saved, setSaved] = useState(() => snapshot([], defaultSettings()));
  const [loadError, setLoadError] = useState<unknown>(null);
  const [errors, setErrors] = useState<DraftErrors>(NO_ERRORS);
  const [conflict, setConflict] = useState(false);
  const [busy, setBusy] = useState<"saving" | "publishing" | null>(null);
  // The latest of everything, for saves started from a shortcut or a dialog.
  const latest = useRef({ state, settings, revision });
  latest.current = { state, settings, revision };

  const load = useCallback(async () => {
    dispatch({ type: "loading" });
    setLoadError(null);
    try {
      const draft = await getDraft(id);
      const next = { ...defaultSettings(), ...draft.definition.settings };
      dispatch({ type: "loaded", items: draft.definition.fields });
      setSettingsState(next);
      setRevision(draft.revision);
      setSaved(snapshot(draft.definition.fields, next));
      setErrors(NO_ERRORS);
      setConflict(false);
    } catch (error) {
      setLoadError(error);
      dispatch({ type: "error", message: getErrorMessage(error) });
    }
  }, [id]);

  useEffect(() => {
    void load();
  }, [load]);

  // A message about the form as a whole ("add a field that takes an answer") is done with once
  // its fields change.
  useEffect(() => {
    if (state.items) setErrors((e) => (e.other.length ? { ...e, other: [] } : e));
  }, [state.items]);

  const dirty = state.edited || snapshot(state.items, settings) !== saved;

  /** Settings changed at `path` ("mail.sendCc"): the server's messages there are done with. */
  const setSettings = useCallback((next: FormSettings, path: string) => {
    setSettingsState(next);
    setErrors((e) => {
      const kept = Object.entries(e.settings).filter(
        ([key]) => !(key === path || key.startsWith(`${path}.`)),
      );
      return kept.length === Object.keys(e.settings).length
        ? e
        : { ...e, settings: Object.fromEntries(kept) };
    });
  }, []);

  /** A field's messages are done with once it is applied or removed. */
  const clearFieldErrors = useCallback((fieldId: string) => {
    setErrors((e) => {
      if (!e.fields[fieldId]) return e;
      const { [fieldId]: _, ...fields } = e.fields;
      return { ...e, fields };
    });
  }, []);

  /** Shows messages where they belong, and opens the first field that has some. */
  const showErrors = useCallback((next: DraftErrors, items: readonly BuilderField[]) => {
    setErrors(next);
    const first = items.findIndex((f) => next.fields[f.id]);
    if (first >= 0) dispatch({ type: "select", index: first });
  }, []);

  /**
   * The definition to send: the fields with the panel's pending edits applied (when they are
   * valid; otherwise null and the panel says why).
   */
  const definitionToSave = useCallback((): FormDefinition | null => {
    const { state: s, settings: current } = latest.current;
    let items = s.items;
    if (s.edited && s.selected !== null && s.properties) {
      const field = cleanField(s.properties);
      if (Object.keys(fieldProblems(field, { fields: items, index: s.selected })).length) {
        message.error(`Fix “${s.properties.label || s.properties.id}” first, or cancel its changes`);
        return null;
      }
      dispatch({ type: "update", index: s.selected, field });
      items = items.map((f, i) => (i === s.selected ? field : f));
    }
    return { fields: items.map(cleanField), settings: current };
  }, [message]);

  const put = useCallback(
    async (definition: FormDefinition, at: number) => {
      const answer = await saveDraft(id, definition, at);
      setRevision(answer.revision);
      setSaved(snapshot(definition.fields, definition.settings));
      setErrors(NO_ERRORS);
      void onChanged();
    },
    [id, onChanged],
  );

  /** Routes a refused save's messages; answers whether it was a refusal with details. */
  const refused = useCallback(
    (error: unknown, items: readonly BuilderField[]) => {
      if (failureStatus(error) === 409) {
        setConflict(true);
        return;
      }
      const details = getFieldErrors(error);
      if (failureStatus(error) === 400 && details.length) {
        const routed = routeErrors(details);
        const byId: DraftErrors = { fields: {}, settings: routed.settings, other: routed.other };
        for (const [index, messages] of Object.entries(routed.fields)) {
          const field = items[Number(index)];
          if (field) byId.fields[field.id] = messages;
          else byId.other.push(...Object.values(messages));
        }
        showErrors(byId, items);
      }
      message.error(getErrorMessage(error));
    },
    [message, showErrors],
  );

  /** Saves the draft; answers whether it is saved. */
  const save = useCallback(async (): Promise<boolean> => {
    const { revision: at } = latest.current;
    const definition = definitionToSave();
    if (!definition || at === null) return false;
    const problems = problemsOf(definition);
    if (countOf(problems)) {
      showErrors(problems, definition.fields);
      const n = countOf(problems);
      message.error(
        n === 1 ? "One thing needs fixing before saving" : `${n} things need fixing before saving`,
      );
      return false;
    }
    setBusy("saving");
    try {
      await put(definition, at);
      message.success("Draft saved");
      return true;
    } catch (error) {
      refused(error, definition.fields);
      return false;
    } finally {
      setBusy(null);
    }
  }, [definitionToSave, put, refused, showErrors, message]);

  /** After a conflict: sends this draft over the one saved meanwhile. */
  const overwrite = useCallback(async () => {
    const definition = definitionToSave();
    if (!definition) return;
    setBusy("saving");
    try {
      const theirs = await getDraft(id);
      await put(definition, theirs.revision);
      setConflict(false);
      message.success("Draft saved over the other changes");
    } catch (error) {
      refused(error, definition.fields);
    } finally {
      setBusy(null);
    }
  }, [definitionToSave, id, put, refused, message]);

  /** Saves first when anything is unsaved, then publishes. */
  const publish = useCallback(async (): Promise<boolean> => {
    const { state: s } = latest.current;
    if ((s.edited || snapshot(s.items, latest.current.settings) !== saved) && !(await save())) return false;
    setBusy("publishing");
    try {
      const { version } = await publishForm(id);
      // Publishing moves the draft's revision on: the next save must send the new one.
      setRevision((await getDraft(id)).revision);
      setErrors(NO_ERRORS);
      void onChanged();
      message.success(`Published as version ${version}`);
      return true;
    } catch (error) {
      refused(error, latest.current.state.items);
      return false;
    } finally {
      setBusy(null);
    }
  }, [id, saved, save, onChanged, refused, message]);

  const problems = useMemo(() => problemsOf({ fields: state.items, settings }), [state.items, settings]);

  return {
    state,
    dispatch,
    settings,
    setSettings,
    dirty,
    /** Ids of the fields as last saved (a published form's saved fields keep their ids). */
    savedIds: useMemo(() => new Set((JSON.parse(saved) as FormDefinition).fields.map((f) => f.id)), [saved]),
    loadError,
    /** Messages of the last refused save, and what the checks find now. */
    errors,
    problems,
    clearFieldErrors,
    conflict,
    closeConflict: () => setConflict(false),
    busy,
    load,
    save,
    overwrite,
    publish,
  };
}

export type FormDraft = ReturnType<typeof useFormDraft>;
