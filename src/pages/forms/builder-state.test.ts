import { describe, expect, it } from "vitest";
import { DEFAULT_TRACKING_PARAMETERS, resetTracking } from "../../../schemas/forms";
import { type BuilderState, builderReducer, initialBuilderState, newField } from "./builder-state";

const name = newField("text", "f1", "Name");
const email = newField("email", "f2", "Email");
const withTwo = (over: Partial<BuilderState> = {}): BuilderState => ({
  ...initialBuilderState,
  items: [name, email],
  ...over,
});

describe("the form builder's transitions (spec §4)", () => {
  it("adding a field appends it and selects it", () => {
    const state = builderReducer(withTwo(), { type: "add", field: newField("rating", "f3", "Stars") });
    expect(state.items.map((f) => f.id)).toEqual(["f1", "f2", "f3"]);
    expect(state.selected).toBe(2);
    expect(state.properties?.id).toBe("f3");
  });

  it("changing a field's type replaces its validation", () => {
    const custom = { ...name, validation: { maxLength: 10, pattern: "^[A-Z]" } };
    const state = builderReducer(withTwo({ items: [custom, email] }), {
      type: "changeKind",
      index: 0,
      kind: "file",
    });
    expect(state.items[0]).toMatchObject({ kind: "file", validation: { accept: [], maxSizeMb: 10 } });
    expect(state.items[0].validation).not.toHaveProperty("pattern");
  });

  it("updating a field's property saves it, clears the selection and the edited flag", () => {
    let state = builderReducer(withTwo(), { type: "select", index: 1 });
    state = builderReducer(state, { type: "edit", patch: { label: "Work email" } });
    expect(state.edited).toBe(true);
    state = builderReducer(state, { type: "update", index: 1, field: state.properties ?? email });
    expect(state.items[1].label).toBe("Work email");
    expect(state).toMatchObject({ selected: null, edited: false, properties: null });
  });

  it("selecting a field clears the edited flag", () => {
    const state = builderReducer(withTwo({ selected: 1, edited: true, properties: email }), {
      type: "select",
      index: 0,
    });
    expect(state).toMatchObject({ selected: 0, edited: false });
    expect(state.properties?.id).toBe("f1");
  });

  it("deleting a field removes it and clears the selection", () => {
    const state = builderReducer(withTwo({ selected: 1, properties: email }), { type: "delete", index: 0 });
    expect(state.items.map((f) => f.id)).toEqual(["f2"]);
    expect(state.selected).toBeNull();
  });

  it("reordering replaces the list", () => {
    const state = builderReducer(withTwo(), { type: "reorder", items: [email, name] });
    expect(state.items.map((f) => f.id)).toEqual(["f2", "f1"]);
  });

  it("loading clears the error flag; an error ends loading", () => {
    const loading = builderReducer({ ...initialBuilderState, error: "Network down" }, { type: "loading" });
    expect(loading).toMatchObject({ loading: true, error: null });
    const failed = builderReducer(loading, { type: "error", message: "Form not found" });
    expect(failed).toMatchObject({ loading: false, error: "Form not found" });
  });

  it("a field dropped between others is inserted there and selected", () => {
    const state = builderReducer(withTwo(), {
      type: "add",
      field: newField("phone", "f3", "Phone"),
      index: 1,
    });
    expect(state.items.map((f) => f.id)).toEqual(["f1", "f3", "f2"]);
    expect(state).toMatchObject({ selected: 1, edited: false });
    expect(state.properties?.id).toBe("f3");
    const past = builderReducer(withTwo(), {
      type: "add",
      field: newField("phone", "f3", "Phone"),
      index: 9,
    });
    expect(past.items.map((f) => f.id)).toEqual(["f1", "f2", "f3"]);
  });

  it("changing the selected field's kind keeps the panel's other edits", () => {
    let state = builderReducer(withTwo(), { type: "select", index: 0 });
    state = builderReducer(state, { type: "edit", patch: { label: "Your age" } });
    state = builderReducer(state, { type: "changeKind", index: 0, kind: "number" });
    expect(state.properties).toMatchObject({ label: "Your age", kind: "number", validation: {} });
    expect(state.items[0]).toMatchObject({ label: "Name", kind: "number" });
  });

  it("the selection follows its field through a reorder", () => {
    let state = builderReducer(withTwo(), { type: "select", index: 0 });
    state = builderReducer(state, { type: "edit", patch: { label: "Full name" } });
    state = builderReducer(state, { type: "reorder", items: [email, name] });
    expect(state).toMatchObject({ selected: 1, edited: true });
    expect(state.properties?.label).toBe("Full name");
  });

  it("renaming a field's id carries over to the conditions that read it", () => {
    const dependent = {
      ...newField("text", "f3", "Company"),
      logic: [
        { action: "show" as const, match: "all" as const, conditions: [{ field: "f2", operator: "nnull" }] },
      ],
    };
    const state = builderReducer(withTwo({ items: [name, email, dependent] }), {
      type: "renameField",
      from: "f2",
      to: "work_email",
    });
    expect(state.items[2].logic?.[0].conditions[0].field).toBe("work_email");
    expect(state.items[0]).toBe(name);
  });

  it("ignores a transition naming a field that is not there", () => {
    const state = withTwo();
    expect(builderReducer(state, { type: "delete", index: 5 })).toBe(state);
    expect(builderReducer(state, { type: "select", index: -1 })).toBe(state);
  });
});

describe("tracking settings (spec §3, §4)", () => {
  it("resetting sets Step 1, the five default parameters in order, and no custom ones", () => {
    const reset = resetTracking({ trackingId: "GTM-1" });
    expect(reset).toEqual({
      trackingId: "GTM-1",
      Step: 1,
      defaultParameters: [
        { id: 1, name: "utm_source", type: 0 },
        { id: 2, name: "utm_medium", type: 0 },
        { id: 3, name: "utm_campaign", type: 0 },
        { id: 4, name: "utm_term", type: 0 },
        { id: 5, name: "utm_content", type: 0 },
      ],
      customParameters: [],
    });
    // A copy: editing the reset settings never changes the defaults.
    reset.defaultParameters[0].name = "changed";
    expect(DEFAULT_TRACKING_PARAMETERS[0].name).toBe("utm_source");
  });
});
