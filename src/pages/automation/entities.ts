/**
 * The entities an automation may start on and write (issue 30): every resource and CMS type the
 * person may reach, with their fields (`GET /api/automations/entities`), read once per builder
 * and kept while it is open. Gives the trigger's choices ("Venue updated"), the record steps'
 * lists, and each entity's fields as variables (an EntitySchema-shaped view for variables.ts).
 */
import { useQuery } from "@tanstack/react-query";
import { useMemo } from "react";
import { createServiceClient } from "../../../providers/http";
import {
  CMS_ENTITY_PREFIX,
  RECORD_RESOURCES,
  RECORD_TRIGGER_KINDS,
  type RecordTriggerKind,
} from "../../../schemas/automation";
import type { EntityField, EntitySummary } from "../../../schemas/automation-entities";
import type { EntitySchema } from "../../../schemas/contract";

export type { EntityField, EntitySummary };

const client = createServiceClient("api");

export const entitiesKey = ["automations", "entities"] as const;

/** The CRM records by the first names flows published before issue 30 use. */
const CRM_FIRST_NAMES: Readonly<Record<string, string>> = {
  client: "clients",
  opportunity: "opportunities",
  task: "tasks",
};

export function useEntities() {
  const query = useQuery({
    queryKey: entitiesKey,
    queryFn: async () => (await client.get<{ data: EntitySummary[] }>("/api/automations/entities")).data.data,
    staleTime: 5 * 60_000,
  });
  const entities = query.data;
  return useMemo(() => {
    const byName = new Map((entities ?? []).map((e) => [e.name, e]));
    const entityOf = (name: string | null | undefined): EntitySummary | undefined =>
      name ? (byName.get(name) ?? byName.get(CRM_FIRST_NAMES[name] ?? "")) : undefined;
    /** An entity's fields as a schema, for variables.ts. */
    const schemaOf = (name: string): EntitySchema | undefined => {
      const entity = entityOf(name);
      if (!entity) return undefined;
      return {
        title: entity.singular,
        properties: Object.fromEntries(
          entity.fields.map((f) => [f.key, { type: f.type, title: f.title, readOnly: !f.writable }]),
        ),
      } as unknown as EntitySchema;
    };
    return { entities: entities ?? [], loading: query.isLoading, error: query.error, entityOf, schemaOf };
  }, [entities, query.isLoading, query.error]);
}

const VERB: Readonly<Record<RecordTriggerKind, string>> = {
  "record-created": "created",
  "record-updated": "updated",
  "record-deleted": "deleted",
};

/** The trigger select's value of an entity's record trigger: `record-updated|products`. */
export const recordTriggerValue = (kind: RecordTriggerKind, entity: string) => `${kind}|${entity}`;

/** An entity's three triggers as the trigger select offers them ("Venue updated"). */
export function recordTriggerOptions(entities: readonly EntitySummary[]) {
  return entities.flatMap((e) =>
    RECORD_TRIGGER_KINDS.map((kind) => ({
      value: recordTriggerValue(kind, e.name),
      label: `${e.singular} ${VERB[kind]}`,
    })),
  );
}

/** The record steps' choice of entity; a CRM first name a flow still uses is kept as an option. */
export function entityOptions(entities: readonly EntitySummary[], current: string | undefined) {
  const options = entities.map((e) => ({
    value: e.name,
    label: e.name.startsWith(CMS_ENTITY_PREFIX) ? `${e.label} (CMS)` : e.label,
  }));
  if (current && (RECORD_RESOURCES as readonly string[]).includes(current))
    options.unshift({ value: current, label: `${current[0].toUpperCase()}${current.slice(1)} (CRM)` });
  return options;
}
