import { describe, expect, it } from "vitest";
import { sampleFromValues } from "./test-samples";
import { actionNote, delayNote, fixFor, waitNote } from "./test-words";

describe("test run words", () => {
  it("notes a skipped delay or wait in a person's words", () => {
    expect(delayNote({ id: "d", kind: "delay", mode: "for", amount: 2, unit: "days" })).toBe(
      "Would wait 2 days",
    );
    expect(delayNote({ id: "d", kind: "delay", mode: "for", amount: 1, unit: "hours" })).toBe(
      "Would wait 1 hour",
    );
    expect(
      delayNote({
        id: "d",
        kind: "delay",
        mode: "until",
        until: "2026-12-01T09:00",
        timeZone: "Asia/Kolkata",
      }),
    ).toBe("Would wait until 2026-12-01 09:00 (Asia/Kolkata)");
    expect(
      waitNote({
        id: "w",
        kind: "wait",
        event: "email-opened",
        timeout: { amount: 3, unit: "days" },
        branches: { event: [], timeout: [] },
      }),
    ).toBe('Would wait up to 3 days for "The email is opened": tested as if it happened (Event branch)');
  });

  it("says what to fix for the executors' errors, and something useful for any other", () => {
    expect(fixFor("The email has no address once its variables are filled")).toMatch(
      /^Set To to an email address/,
    );
    expect(fixFor("A tag is added to the run's client: this run has none")).toMatch(
      /^Pick a sample about a client/,
    );
    expect(fixFor('"abc" is not a number (field amount)')).toMatch(/number/);
    expect(fixFor("something nobody foresaw")).toMatch(/^Change this step's settings/);
  });

  it("notes what a test did not carry out", () => {
    const mail = { id: "m", kind: "action", type: "send_email", inputs: {} } as const;
    expect(actionNote(mail, { sent: "email" })).toMatch(/^Not sent/);
    expect(actionNote(mail, { skipped: "The client has not agreed" })).toBe(
      "A real run would skip it: The client has not agreed",
    );
    expect(actionNote({ id: "c", kind: "action", type: "create_record", inputs: {} }, {})).toMatch(
      /^Not kept/,
    );
  });

  it("builds a sample record from typed values, never reaching a prototype", () => {
    expect(sampleFromValues({ company: "Acme", "trigger.order.total": "12", "order.id": "A-1" })).toEqual({
      company: "Acme",
      order: { total: "12", id: "A-1" },
    });
    const record = sampleFromValues({ "__proto__.polluted": "yes", "a.constructor": "x" });
    expect(record).toEqual({});
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });
});
