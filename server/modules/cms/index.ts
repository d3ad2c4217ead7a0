/**
 * The headless CMS module: content types as data, entries with drafts, versions and
 * schedules, and the public delivery API. Domains are an engine resource (resources/cms-domains.ts).
 */
import type { FastifyInstance } from "fastify";
import { MODULE_IDS } from "../../../resources/modules";
import type { AppContext } from "../../context";
import { addEntitySource } from "../../resources/record-events";
import { webhookRoutes } from "../../webhooks/webhook.routes";
import { cmsRoutes } from "./cms.routes";
import { ContentTypesService } from "./content-types.service";
import { EntriesService } from "./entries.service";
import { cmsEntities } from "./entry-entities";
import { entryHistoryRoute } from "./entry-history";
import { EntryLifecycle, SCHEDULE_ATTEMPTS, SCHEDULE_JOB, type SchedulePayload } from "./entry-lifecycle";
import { EntryLocaleService, entryLocaleRoutes } from "./entry-locales";
import { navigationRoutes } from "./navigation.routes";
import { PreviewOrigins, previewRoutes } from "./preview";
import { publicCmsRoutes } from "./public.routes";
import { PublicCache } from "./public-cache";
import { tokenRoutes } from "./token.routes";
import { TypeRegistry } from "./type-registry";

/** The events the CMS's webhooks may listen to. */
export const CMS_WEBHOOK_EVENTS = ["entry.publish", "entry.unpublish", "entry.delete"] as const;

export async function cmsModule(app: FastifyInstance, ctx: AppContext) {
  const registry = new TypeRegistry(ctx);
  const delivery = new PublicCache(ctx, registry);
  const types = new ContentTypesService(ctx, registry);
  const entries = new EntriesService(ctx, registry);
  const lifecycle = new EntryLifecycle(ctx, registry, entries);
  // Every collection and single type is an entity automations start on and write.
  addEntitySource(ctx, cmsEntities(registry, entries));
  ctx.jobs.register<SchedulePayload>(
    SCHEDULE_JOB,
    (job) => lifecycle.runScheduled(job.payload, job.attempt),
    {
      concurrency: 2,
      maxAttempts: SCHEDULE_ATTEMPTS,
    },
  );
  // Published, unpublished and deleted entries reach the CMS's webhooks.
  lifecycle.onChange(async (event, type, entry) => {
    await ctx.webhooks.dispatch(MODULE_IDS.cms, `entry.${event}`, { type: type.apiName, entry });
  });
  await cmsRoutes(app, { types, entries, lifecycle });
  entryHistoryRoute(app, ctx, { types, lifecycle });
  await entryLocaleRoutes(app, registry, new EntryLocaleService(ctx, entries));
  await webhookRoutes(app, ctx, {
    moduleId: MODULE_IDS.cms,
    path: "/cms/webhooks",
    events: CMS_WEBHOOK_EVENTS,
    tag: "cms webhooks",
    moduleName: "CMS",
  });
  await navigationRoutes(app, ctx, registry, delivery);
  await tokenRoutes(app, ctx);
  await previewRoutes(app, ctx, registry);
  await publicCmsRoutes(app, ctx, registry, delivery);
  return { registry, types, entries, lifecycle, previewOrigins: new PreviewOrigins(ctx) };
}
