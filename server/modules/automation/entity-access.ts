/**
 * The entities an automation may start on and write (issue 30): every engine resource and CMS
 * type the person's grants reach (`GET /api/automations/entities`, the builder's lists, with
 * each one's fields), and the publish's check that the flow names only entities that exist and
 * that the person publishing may reach (a 400 on the node, a 403).
 */
import type { FastifyInstance, FastifyRequest } from "fastify";
import { MODULE_IDS } from "../../../resources/modules";
import {
  type AutomationDefinition,
  isRecordTrigger,
  TRIGGER_ID,
  walkSteps,
} from "../../../schemas/automation";
import type { EntityField, EntitySummary } from "../../../schemas/automation-entities";
import type { EntitySchema, FieldSchema } from "../../../schemas/contract";
import { isInternal } from "../../../schemas/contract";
import { moduleAccess, principalOf } from "../../auth/access";
import type { AppContext } from "../../context";
import { forbidden } from "../../http/errors";
import { type Entity, entityNamed, listEntities } from "../../resources/record-events";
import { invalid } from "./definitions";

export type { EntityField, EntitySummary };

const AUDIT = new Set(["created_by", "updated_by"]);

function fieldsOf(schema: EntitySchema): EntityField[] {
  return Object.entries(schema.properties)
    .filter(([key, field]) => !AUDIT.has(key) && !isInternal(field as FieldSchema))
    .map(([key, raw]) => {
      const field = raw as FieldSchema & { enum?: readonly unknown[] };
      const type = ([] as string[]).concat((field.type as string | string[] | undefined) ?? "string");
      return {
        key,
        title: field.title ?? key,
        type: type.find((t) => t !== "null") ?? "string",
        ...(field.format ? { format: field.format } : {}),
        writable: !field.readOnly && key !== "id",
        ...(field.enum ? { enum: field.enum } : {}),
      };
    });
}

async function summaryOf(entity: Entity): Promise<EntitySummary> {
  return {
    name: entity.name,
    label: entity.label,
    singular: entity.singular,
    fields: fieldsOf(await entity.schema()),
  };
}

/** The entities a flow names: its record trigger's and its record steps'. */
function namedEntities(
  definition: AutomationDefinition,
): Array<{ name: string; nodeId: string; field: string }> {
  const named: Array<{ name: string; nodeId: string; field: string }> = [];
  const { trigger } = definition;
  if (isRecordTrigger(trigger.kind) && trigger.resource)
    named.push({ name: trigger.resource, nodeId: TRIGGER_ID, field: "trigger.resource" });
  for (const step of walkSteps(definition.steps))
    if (
      step.kind === "action" &&
      (step.type === "create_record" || step.type === "update_record" || step.type === "find_record") &&
      step.inputs.resource &&
      !["client", "opportunity", "task"].includes(step.inputs.resource)
    )
      named.push({ name: step.inputs.resource, nodeId: step.id, field: "inputs.resource" });
  return named;
}

/**
 * Refuses a publish naming an entity that does not exist (400, on its node) or whose module the
 * person lacks (403): what a run does to a record, its publisher could do.
 */
export async function requireEntities(
  ctx: AppContext,
  request: FastifyRequest,
  definition: AutomationDefinition,
): Promise<void> {
  const { modules } = principalOf(request);
  for (const { name, nodeId, field } of namedEntities(definition)) {
    const entity = await entityNamed(ctx, name);
    if (!entity)
      throw invalid([{ nodeId, field, message: `There is no kind of record "${name}": choose another` }]);
    if (!modules.has(entity.moduleID))
      throw forbidden(`Publishing this automation needs access to ${entity.label.toLowerCase()}`);
  }
}

export async function automationEntityRoutes(app: FastifyInstance, ctx: AppContext) {
  app.get(
    "/api/automations/entities",
    {
      config: { access: moduleAccess(MODULE_IDS.automation) },
      schema: {
        tags: ["automations"],
        security: [{ bearer: [] }],
        summary:
          "Every kind of record an automation may start on or write, with its fields (those you may reach)",
      },
    },
    async (request) => {
      const { modules } = principalOf(request);
      const entities = (await listEntities(ctx)).filter((e) => modules.has(e.moduleID));
      const data = await Promise.all(entities.map(summaryOf));
      return { data, total: data.length };
    },
  );
}
