/**
 * An automation's runs and actions reach CRM records (a client's fields in a run's record, a
 * step that creates or tags a client): a person with the Automation module but not the CRM
 * module must not see or change them through it. Such a person reads runs without their
 * records and steps' data, may not run one about a client, and may not publish a flow that
 * touches the CRM.
 */
import type { FastifyRequest } from "fastify";
import { MODULE_IDS } from "../../../resources/modules";
import { type AutomationDefinition, RECORD_RESOURCES, walkSteps } from "../../../schemas/automation";
import { principalOf } from "../../auth/access";
import { forbidden } from "../../http/errors";
import type { Run, RunWithSteps } from "../../runs";

const CRM_TRIGGERS: ReadonlySet<string> = new Set([
  "client-created",
  "opportunity-stage-changed",
  "form-submitted",
  // About a client: their proposal, their cart (its customer, when a client has their email).
  "proposal-accepted",
  "cart-abandoned",
  // About a client's CRM email.
  "email-opened",
  "email-clicked",
]);
const CRM_ACTIONS: ReadonlySet<string> = new Set(["send_email", "send_sms", "add_tag", "enrol_in_sequence"]);
/** Record steps on a CRM record by its first name; on any other entity its module is checked (entity-access.ts). */
const RECORD_ACTIONS: ReadonlySet<string> = new Set(["create_record", "update_record", "find_record"]);

export const hasCrm = (request: FastifyRequest) => principalOf(request).modules.has(MODULE_IDS.crm);

/** Whether a flow reads or changes CRM records (a CRM trigger, a CRM action, a wait on a CRM event). */
export function touchesCrm(definition: AutomationDefinition): boolean {
  if (CRM_TRIGGERS.has(definition.trigger.kind)) return true;
  return walkSteps(definition.steps).some(
    (s) =>
      (s.kind === "action" &&
        s.type !== null &&
        (CRM_ACTIONS.has(s.type) ||
          (RECORD_ACTIONS.has(s.type) &&
            (RECORD_RESOURCES as readonly string[]).includes(s.inputs.resource ?? "")))) ||
      s.kind === "wait",
  );
}

/** Refuses (403) what needs the CRM module too. */
export function requireCrm(request: FastifyRequest, what: string): void {
  if (!hasCrm(request)) throw forbidden(`${what} needs the CRM module too: it reads or changes CRM records`);
}

/** A run as someone without the CRM module sees it: where it is and why, not the records it carries. */
export function withoutRecords<R extends Run | RunWithSteps>(run: R): R {
  const out = { ...run, context: null, outputs: {} } as R;
  if ("steps" in out)
    (out as RunWithSteps).steps = out.steps.map((s) => ({ ...s, input: null, output: null }));
  return out;
}
