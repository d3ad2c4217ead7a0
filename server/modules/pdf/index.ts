/**
 * The PDF library module: its admin, public and analytics routes, the processing job and the
 * on-demand zoom pages, with the renderer this machine has (poppler when installed, else
 * pdf.js), named in the log at start-up.
 */
import type { FastifyInstance } from "fastify";
import type { AppContext } from "../../context";
import type { ResourceServices } from "../../resources";
import { onDemandOf } from "../../storage/on-demand";
import { analyticsRoutes } from "./analytics.routes";
import { pdfRoutes } from "./pdf.routes";
import { PROCESS_JOB, type ProcessPayload } from "./pdf.service";
import { PROCESS_ATTEMPTS, processJob } from "./process.job";
import { publicPdfRoutes } from "./public.routes";
import { chooseRenderer } from "./render";
import { zoomPageSource } from "./zoom-pages";

export async function pdfModule(app: FastifyInstance, ctx: AppContext, services: ResourceServices) {
  const renderer = await chooseRenderer();
  ctx.log.info({ renderer: renderer.name }, `PDF renderer: ${renderer.name}`);
  // Page zoom images are made on first request, through the assets service or view-image.dll.
  onDemandOf(ctx).register(zoomPageSource(ctx, renderer));
  const pdfs = await pdfRoutes(app, ctx, services);
  await publicPdfRoutes(app, ctx, pdfs);
  await analyticsRoutes(app, ctx);
  // One catalogue at a time: the renderer already uses every core for its pages.
  ctx.jobs.register<ProcessPayload>(PROCESS_JOB, processJob(ctx, pdfs, renderer), {
    concurrency: 1,
    maxAttempts: PROCESS_ATTEMPTS,
  });
  return pdfs;
}
