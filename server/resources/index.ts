/** Registers resources (all of resources/index.ts by default) with their rules and CSV routes. */
import type { FastifyInstance } from "fastify";
import type { ResourceDefinition } from "../../resources/contract";
import { RESOURCES } from "../../resources/index";
import type { AppContext } from "../context";
import { automationRules } from "../modules/automation/automation.rules";
import { domainRules } from "../modules/cms/domain.rules";
import { clientRules } from "../modules/crm/client.rules";
import { dropdownRules } from "../modules/crm/dropdowns.rules";
import { opportunityRules } from "../modules/crm/opportunity.rules";
import { sequenceRules } from "../modules/crm/sequences/sequence.rules";
import { taskRules } from "../modules/crm/task.rules";
import { formRules } from "../modules/forms/forms.rules";
import { pdfRules } from "../modules/pdf/pdf.rules";
import { proposalRules } from "../modules/store/proposal.rules";
import { productStoreRules } from "../modules/store/push";
import { registerBulkUpdateJob, registerBulkUpdateRoutes } from "./bulk/bulk-update.routes";
import { registerCsvParser, registerCsvRoutes } from "./csv/routes";
import { registerResource } from "./engine";
import { pruneHistoryRegularly } from "./history/retention";
import { registerHistoryAdminRoute, registerHistoryRoutes } from "./history/routes";
import { addEntitySource, type Entity } from "./record-events";
import type { RulesRegistry } from "./rules";
import type { ResourceService } from "./service";
import { registerViewRoutes } from "./views/views.routes";

/** A resource as an entity: its service's own create, update and find. */
function entityOf(service: ResourceService): Entity {
  const { def } = service;
  return {
    name: def.name,
    label: def.label,
    singular: def.singular,
    moduleID: def.moduleID,
    schema: () => service.schemaNow(),
    create: (body, via) => service.create(body, via.actorId, via),
    update: (id, body, via) => service.update(id, body, via.actorId, via),
    find: (db, match) => service.findFirst(db, match),
  };
}

/**
 * Rules by resource name (sorted). The product sub-category rule became a composite
 * foreign key (`x-relation.within`), so no write needs a read first.
 */
export const RULES: RulesRegistry = {
  automations: automationRules,
  clients: clientRules,
  domains: domainRules,
  dropdowns: dropdownRules,
  forms: formRules,
  opportunities: opportunityRules,
  pdfs: pdfRules,
  products: productStoreRules,
  proposals: proposalRules,
  sequences: sequenceRules,
  tasks: taskRules,
};

export type ResourceServices = ReadonlyMap<string, ResourceService>;

export function registerResources(
  app: FastifyInstance,
  ctx: AppContext,
  defs: readonly ResourceDefinition[] = RESOURCES,
  rules: RulesRegistry = RULES,
): ResourceServices {
  const byName = (name: string) => defs.find((d) => d.name === name);
  const services = new Map<string, ResourceService>();
  registerCsvParser(app);
  for (const def of defs) {
    const service = registerResource(app, ctx, def, byName, rules[def.name]);
    registerCsvRoutes(app, ctx, def, { service, resolve: byName, rules: rules[def.name] ?? {} });
    // Saved views and bulk edit (issue 31): every resource's list has them.
    registerViewRoutes(app, ctx, def, service);
    registerBulkUpdateRoutes(app, ctx, def, service);
    services.set(def.name, service);
  }
  registerBulkUpdateJob(ctx, services);
  // Every record's history (history/): its routes, for every resource.
  for (const service of services.values()) registerHistoryRoutes(app, ctx, service, services);
  registerHistoryAdminRoute(app, ctx, services);
  pruneHistoryRegularly(ctx);
  // Every resource is an entity automations start on and write (record-events.ts).
  const entities = new Map([...services].map(([name, service]) => [name, entityOf(service)]));
  addEntitySource(ctx, { list: () => [...entities.values()], get: (name) => entities.get(name) });
  return services;
}
