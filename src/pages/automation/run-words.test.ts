import { describe, expect, it } from "vitest";
import type { AutomationDefinition } from "../../../schemas/automation";
import { WAIT_EVENT_LABELS } from "../../../schemas/automation";
import { exitReasonText, humanKey, runFields, stepWords } from "./run-words";

const definition: AutomationDefinition = {
  trigger: { kind: "client-created" },
  steps: [
    {
      id: "condition-1",
      kind: "condition",
      condition: { operator: "and", value: [{ field: "email", operator: "nnull", value: null }] },
      branches: {
        yes: [
          {
            id: "action-1",
            kind: "action",
            name: "Say hello",
            type: "send_email",
            inputs: { to: "{{client.email}}", subject: "Hi", body: "Hello" },
          },
        ],
        no: [
          {
            id: "wait-1",
            kind: "wait",
            event: "email-replied",
            timeout: { amount: 2, unit: "days" },
            branches: { event: [], timeout: [] },
          },
        ],
      },
    },
  ],
};

describe("stepWords", () => {
  it("names a step by its canvas title and says the branch a condition took", () => {
    const words = stepWords(definition, {
      key: "condition-1",
      type: "condition",
      input: { condition: definition.steps[0].kind === "condition" ? definition.steps[0].condition : null },
      output: { branch: "yes" },
    });
    expect(words).toEqual({
      number: 1,
      title: "Condition",
      kind: null,
      outcome: "Took the Yes branch",
      input: [{ label: "Rule", value: "email is not empty" }],
      output: [],
    });
  });

  it("keeps the name a person gave a step, with its kind beside it, and labels its fields", () => {
    const words = stepWords(definition, {
      key: "action-1",
      type: "send_email",
      // As jsonb keeps them: keys by length, not in the order a person reads them.
      input: { to: "mira@example.com", body: "Hello", subject: "Hi" },
      output: { to: "mira@example.com", sent: "email", messageId: "m-1" },
    });
    expect(words.number).toBe(2);
    expect(words.title).toBe("Say hello");
    expect(words.kind).toBe("Send email");
    expect(words.outcome).toBeNull();
    expect(words.input).toEqual([
      { label: "To", value: "mira@example.com" },
      { label: "Subject", value: "Hi" },
      { label: "Message", value: "Hello" },
    ]);
    // The address is the input's; the message's id is for the JSON.
    expect(words.output).toEqual([{ label: "Sent", value: "Email" }]);
  });

  it("says how a wait for an event ended, and what it waited for", () => {
    const words = stepWords(definition, {
      key: "wait-1",
      type: "wait",
      input: { event: "email-replied", timeoutAt: "2026-01-02T03:04:00.000Z" },
      output: { resumedBy: "timeout" },
    });
    expect(words.title).toBe("Wait for event");
    expect(words.number).toBe(3);
    expect(words.outcome).toBe("No event in time: took the Timeout branch");
    expect(words.input[0]).toEqual({ label: "Waits for", value: "The email is answered" });
    expect(words.input[1].label).toBe("Gives up at");
    expect(words.input[1].value).toMatch(/^\d{2}-\d{2}-2026 \d{2}:\d{2}$/);
    expect(words.output).toEqual([]);
  });

  it("names the event of a wait on the run's own mail (stored with the message's id)", () => {
    const words = stepWords(definition, {
      key: "wait-1",
      type: "wait",
      input: { event: "email-opened", messageId: "m-1" },
      output: { resumedBy: "event", event: "email-opened:6f1c2a40-0000-4000-8000-000000000001" },
    });
    expect(words.output).toEqual([{ label: "Waits for", value: WAIT_EVENT_LABELS["email-opened"] }]);
  });

  it("falls back to the step's type in words when the definition lacks the step", () => {
    const words = stepWords(null, { key: "gone-1", type: "http_request", input: { body: "{}" }, output: 3 });
    expect(words.title).toBe("HTTP request");
    expect(words.number).toBeNull();
    expect(words.input).toEqual([{ label: "Body", value: "{}" }]);
    expect(words.output).toEqual([{ label: "Value", value: "3" }]);
  });
});

describe("runFields", () => {
  it("reads a delay's input as a wait, not as its parts", () => {
    expect(
      runFields({ id: "delay-1", kind: "delay", mode: "for", amount: 1, unit: "days", timeZone: "UTC" }),
    ).toEqual([{ label: "Wait", value: "1 day" }]);
  });

  it("says yes/no, groups and lists in one line", () => {
    expect(runFields({ added: false, fields: { name: "Mira", tier: "gold" }, headers: [] })).toEqual([
      { label: "Fields", value: "name: Mira · tier: gold" },
      { label: "Added", value: "No" },
      { label: "Headers", value: "—" },
    ]);
  });
});

describe("words", () => {
  it("makes keys and exit reasons readable", () => {
    expect(humanKey("timeoutAt")).toBe("Timeout at");
    expect(humanKey("record_id")).toBe("Record ID");
    expect(exitReasonText("client-deleted")).toBe("The client was deleted");
    expect(exitReasonText("left-early")).toBe("Left early");
  });
});
