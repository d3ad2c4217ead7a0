/**
 * The form builder's state (spec §3: fields each with a kind and a validation object, the
 * selected field, the edited flag, the property panel, loading and error flags) and its
 * transitions, exactly as spec §4 lists them, as a reducer:
 * - adding a field appends it and selects it;
 * - changing a field's kind replaces its validation;
 * - updating a field's property saves it, clears the selection and clears the edited flag;
 * - selecting a field clears the edited flag;
 * - deleting a field removes it and clears the selection;
 * - reordering replaces the list;
 * - loading clears the error flag; an error ends loading.
 * Beyond the spec's list, what a canvas needs: a field dropped between others is inserted
 * there (and selected, as an added one), the selection follows its field through a reorder,
 * and renaming a field's id carries over to the conditions that read it.
 */
import type { FormFieldDef } from "../../../schemas/form-definition";
import { defaultValidation, type FormFieldKind } from "../../../schemas/forms";

/** A field as the builder edits it: the stored definition's field (schemas/form-definition.ts). */
export type BuilderField = FormFieldDef;

export interface BuilderState {
  items: BuilderField[];
  /** Index of the selected field, or null. */
  selected: number | null;
  /** The property panel holds changes not yet saved to the field. */
  edited: boolean;
  /** The property panel's contents (the selected field as being edited). */
  properties: BuilderField | null;
  loading: boolean;
  error: string | null;
}

export const initialBuilderState: BuilderState = {
  items: [],
  selected: null,
  edited: false,
  properties: null,
  loading: false,
  error: null,
};

export type BuilderAction =
  /** Appends the field, or inserts it at `index` (a drop on the canvas). */
  | { type: "add"; field: BuilderField; index?: number }
  | { type: "changeKind"; index: number; kind: FormFieldKind }
  /** A change in the property panel; the id among them only while the page lets it change. */
  | { type: "edit"; patch: Partial<BuilderField> }
  | { type: "update"; index: number; field: BuilderField }
  | { type: "select"; index: number }
  | { type: "delete"; index: number }
  | { type: "reorder"; items: BuilderField[] }
  /** A field's id changed: the logic of every field that read its answer follows. */
  | { type: "renameField"; from: string; to: string }
  | { type: "loading" }
  | { type: "loaded"; items: BuilderField[] }
  | { type: "error"; message: string };

const inRange = (state: BuilderState, index: number) => index >= 0 && index < state.items.length;

export function builderReducer(state: BuilderState, action: BuilderAction): BuilderState {
  switch (action.type) {
    case "add": {
      const at =
        action.index === undefined
          ? state.items.length
          : Math.max(0, Math.min(action.index, state.items.length));
      const items = [...state.items.slice(0, at), action.field, ...state.items.slice(at)];
      return { ...state, items, selected: at, edited: false, properties: action.field };
    }
    case "changeKind": {
      if (!inRange(state, action.index)) return state;
      const field = {
        ...state.items[action.index],
        kind: action.kind,
        validation: defaultValidation(action.kind),
      };
      const items = state.items.map((f, i) => (i === action.index ? field : f));
      // The panel's other edits to that field (a label typed before the kind was changed) stay.
      const properties =
        state.selected === action.index
          ? { ...(state.properties ?? field), kind: action.kind, validation: field.validation }
          : state.properties;
      return { ...state, items, properties };
    }
    case "edit":
      if (!state.properties) return state;
      return { ...state, properties: { ...state.properties, ...action.patch }, edited: true };
    case "update": {
      if (!inRange(state, action.index)) return state;
      const items = state.items.map((f, i) => (i === action.index ? action.field : f));
      return { ...state, items, selected: null, edited: false, properties: null };
    }
    case "select":
      if (!inRange(state, action.index)) return state;
      return { ...state, selected: action.index, edited: false, properties: state.items[action.index] };
    case "delete": {
      if (!inRange(state, action.index)) return state;
      return {
        ...state,
        items: state.items.filter((_, i) => i !== action.index),
        selected: null,
        edited: false,
        properties: null,
      };
    }
    case "reorder": {
      // The selection follows its field to its new place.
      const id = state.selected === null ? null : state.items[state.selected]?.id;
      const at = id === null ? -1 : action.items.findIndex((f) => f.id === id);
      return at < 0
        ? { ...state, items: action.items, selected: null, edited: false, properties: null }
        : { ...state, items: action.items, selected: at };
    }
    case "renameField": {
      const rename = (f: BuilderField) => renameInLogic(f, action.from, action.to);
      return {
        ...state,
        items: state.items.map(rename),
        properties: state.properties && rename(state.properties),
      };
    }
    case "loading":
      return { ...state, loading: true, error: null };
    case "loaded":
      return {
        ...state,
        loading: false,
        items: action.items,
        selected: null,
        edited: false,
        properties: null,
      };
    case "error":
      return { ...state, loading: false, error: action.message };
  }
}

/** The field with its logic's conditions on `from` reading `to` instead (the same object if none did). */
export function renameInLogic(field: BuilderField, from: string, to: string): BuilderField {
  if (!field.logic?.some((rule) => rule.conditions.some((c) => c.field === from))) return field;
  return {
    ...field,
    logic: field.logic.map((rule) => ({
      ...rule,
      conditions: rule.conditions.map((c) => (c.field === from ? { ...c, field: to } : c)),
    })),
  };
}

/** A new field of a kind, with the kind's validation. */
export function newField(kind: FormFieldKind, id: string, label: string): BuilderField {
  return { id, kind, label, validation: defaultValidation(kind) };
}
