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
 */
import { defaultValidation, type FieldValidation, type FormFieldKind } from "../../../schemas/forms";

export interface BuilderField {
  /** Stable across reorders: the drag handle's and the answers' key. */
  id: string;
  kind: FormFieldKind;
  label: string;
  placeholder?: string;
  help?: string;
  required?: boolean;
  options?: string[];
  validation: FieldValidation;
}

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
  | { type: "add"; field: BuilderField }
  | { type: "changeKind"; index: number; kind: FormFieldKind }
  | { type: "edit"; patch: Partial<Omit<BuilderField, "id">> }
  | { type: "update"; index: number; field: BuilderField }
  | { type: "select"; index: number }
  | { type: "delete"; index: number }
  | { type: "reorder"; items: BuilderField[] }
  | { type: "loading" }
  | { type: "loaded"; items: BuilderField[] }
  | { type: "error"; message: string };

const inRange = (state: BuilderState, index: number) => index >= 0 && index < state.items.length;

export function builderReducer(state: BuilderState, action: BuilderAction): BuilderState {
  switch (action.type) {
    case "add": {
      const items = [...state.items, action.field];
      return { ...state, items, selected: items.length - 1, properties: action.field };
    }
    case "changeKind": {
      if (!inRange(state, action.index)) return state;
      const field = {
        ...state.items[action.index],
        kind: action.kind,
        validation: defaultValidation(action.kind),
      };
      const items = state.items.map((f, i) => (i === action.index ? field : f));
      return { ...state, items, properties: state.selected === action.index ? field : state.properties };
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
    case "reorder":
      return { ...state, items: action.items };
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

/** A new field of a kind, with the kind's validation. */
export function newField(kind: FormFieldKind, id: string, label: string): BuilderField {
  return { id, kind, label, validation: defaultValidation(kind) };
}
