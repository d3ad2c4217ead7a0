import { describe, expect, it } from "vitest";
import type { AutomationDefinition } from "../../../schemas/automation";
import { type AutomationAction, automationReducer, initialAutomationState } from "./automation-state";

const definition: AutomationDefinition = {
  trigger: { kind: "client-created" },
  steps: [
    { id: "mail", kind: "action", type: "send_email", inputs: {} },
    { id: "pause", kind: "delay", mode: "for", amount: 1, unit: "days" },
  ],
};
const run = (...actions: AutomationAction[]) => actions.reduce(automationReducer, initialAutomationState);
const loaded = { type: "load", definition } as const;

describe("the automation slice (spec §3)", () => {
  it("starts with nothing selected: sidebarType 'empty', no nodes, no action type", () => {
    expect(initialAutomationState).toEqual({
      nodes: [],
      edges: [],
      flowVisibility: false,
      sidebarType: "empty",
      selectedNode: null,
      actionType: null,
      formFields: [],
      actionFormFields: [],
    });
  });

  it("shows the flow once loaded, and the selected node's form in the sidebar", () => {
    const state = run(loaded);
    expect(state.flowVisibility).toBe(true);
    expect(state.nodes.map((n) => n.id)).toContain("pause");
    expect(run(loaded, { type: "select", nodeId: "plus:mail" }).sidebarType).toBe("insert");
    expect(run(loaded, { type: "select", nodeId: "trigger" }).sidebarType).toBe("trigger");
    expect(run(loaded, { type: "select", nodeId: "pause" }).sidebarType).toBe("delay");
    const action = run(loaded, { type: "select", nodeId: "mail" });
    expect(action).toMatchObject({
      sidebarType: "action",
      selectedNode: "mail",
      actionType: { value: "send email", actionName: "send_email" },
    });
    expect(run(loaded, { type: "select", nodeId: "mail" }, { type: "select", nodeId: null })).toMatchObject({
      sidebarType: "empty",
      selectedNode: null,
      actionType: null,
    });
  });

  it("stores the chosen action option as its type name, spaces replaced by underscores (spec §4)", () => {
    const state = run(
      loaded,
      { type: "select", nodeId: "mail" },
      { type: "chooseActionType", option: "enrol in sequence" },
    );
    expect(state.actionType).toEqual({ value: "enrol in sequence", actionName: "enrol_in_sequence" });
    expect(state.nodes.find((n) => n.id === "mail")?.data.config).toMatchObject({
      type: "enrol_in_sequence",
    });
  });

  it("selects a step inserted at a plus node, and forgets a deleted selection", () => {
    const inserted = run(loaded, { type: "insert", plusId: "plus:trigger", kind: "condition" });
    expect(inserted).toMatchObject({ selectedNode: "condition-1", sidebarType: "condition" });
    expect(inserted.nodes.find((n) => n.id === "mail")?.parentId).toBe("condition-1:yes");
    const deleted = run(loaded, { type: "select", nodeId: "pause" }, { type: "delete", nodeId: "pause" });
    expect(deleted).toMatchObject({ selectedNode: null, sidebarType: "empty" });
    const kept = automationReducer(inserted, { type: "deleteKeeping", nodeId: "condition-1", keep: "yes" });
    expect(kept.nodes.find((n) => n.id === "mail")?.parentId).toBe("trigger");
    expect(run(loaded, { type: "deleteSubsequent", nodeId: "mail" }).nodes.map((n) => n.id)).toEqual([
      "trigger",
      "plus:trigger",
      "empty:trigger",
    ]);
  });

  it("keeps the variables it is given, and resets to its initial state", () => {
    const fields = [{ key: "client.email", label: "Email" }];
    const state = run(loaded, { type: "setFormFields", fields }, { type: "setActionFormFields", fields });
    expect(state.formFields).toEqual(fields);
    expect(state.actionFormFields).toEqual(fields);
    expect(automationReducer(state, { type: "reset" })).toEqual(initialAutomationState);
  });
});
