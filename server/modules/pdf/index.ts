/**
 * The PDF library module: its admin, public and analytics routes, and the processing job with the renderer this
 * machine has (poppler when installed, else pdf.js), named in the log at start-up.
 */
import type { FastifyInstance } from "fastify";
import type { AppContext } from "../../context";
import type { ResourceServices } from "../../resources";
import { analyticsRoutes } from "./analytics.routes";
import { pdfRoutes } from "./pdf.routes";
import { PROCESS_JOB, type ProcessPayload } from "./pdf.service";
import { PROCESS_ATTEMPTS, processJob } from "./process.job";
import { publicPdfRoutes } from "./public.routes";
import { chooseRenderer } from "./render";

export async function pdfModule(app: FastifyInstance, ctx: AppContext, services: ResourceServices) {
  const pdfs = await pdfRoutes(app, ctx, services);
  await publicPdfRoutes(app, ctx, pdfs);
  await analyticsRoutes(app, ctx);
  const renderer = await chooseRenderer();
  ctx.log.info({ renderer: renderer.name }, `PDF renderer: ${renderer.name}`);
  // One catalogue at a time: the renderer already uses every core for its pages.
  ctx.jobs.register<ProcessPayload>(PROCESS_JOB, processJob(ctx, pdfs, renderer), {
    concurrency: 1,
    maxAttempts: PROCESS_ATTEMPTS,
  });
  return pdfs;
}
