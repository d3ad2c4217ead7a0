/**
 * A CMS type as an entity of automations (issue 30, server/resources/record-events.ts): its name
 * `cms:<apiName>`, and its entries' writes told to the app's record watcher (automations' record
 * triggers) in the write's transaction, with the entries as the admin API shows them.
 */
import { CMS_ENTITY_PREFIX } from "../../../schemas/automation-triggers";
import type { CoreContext } from "../../core-context";
import {
  type EntityWriteOptions,
  type RecordChangeType,
  recordWatcherOf,
} from "../../resources/record-events";
import type { AnyDb } from "../../resources/rules";
import { type EntryRow, entryRecord } from "./entry-record";
import type { ContentType } from "./type-registry";

/** `cms:<apiName>` ("cms:article"). */
export const cmsEntity = (type: Pick<ContentType, "apiName">) => `${CMS_ENTITY_PREFIX}${type.apiName}`;

/** Tells the record watcher of an entry's write, in its transaction (throwing undoes the write). */
export async function tellEntryChange(
  app: CoreContext,
  db: AnyDb,
  type: ContentType,
  change: RecordChangeType,
  before: EntryRow | null,
  after: EntryRow | null,
  actorId: string | null,
  via?: EntityWriteOptions,
): Promise<void> {
  await recordWatcherOf(app)?.changed(db, [
    {
      entity: cmsEntity(type),
      type: change,
      before: before && entryRecord(type, before),
      after: after && entryRecord(type, after),
      actorId,
      cause: via?.cause ?? null,
    },
  ]);
}
