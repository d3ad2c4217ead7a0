/**
 * Builds the Fastify app. Plugins load in a visible order: external (docs) → app
 * (errors, validation, access guard) → routes.
 */
import Fastify, { type FastifyInstance, type FastifyServerOptions } from "fastify";
import type { ResourceDefinition } from "../resources/contract";
import { registerAccessGuard } from "./auth/access";
import { authRoutes } from "./auth/auth.routes";
import { watchSessionChanges } from "./auth/principal";
import { PrincipalCache } from "./auth/principal-cache";
import { secondFactorRoutes } from "./auth/second-factor.routes";
import { createTokenService } from "./auth/tokens";
import { ensureFirstAdmin, loadJwtSecret, seedModules } from "./bootstrap";
import type { Config } from "./config";
import type { AppContext } from "./context";
import type { DatabaseHandle } from "./db";
import { registerCompression } from "./http/compression";
import { registerOpenApi, registerOpenApiUi } from "./http/docs";
import { handleError } from "./http/errors";
import { healthRoutes } from "./http/health";
import { registerIdempotency } from "./http/idempotency";
import { frameworkErrors, registerInputGuards } from "./http/input-guards";
import { requestPressure } from "./http/pressure";
import { registerSecurityHeaders } from "./http/security-headers";
import { spaRoutes } from "./http/spa";
import { validatorCompiler } from "./http/validation";
import { createJobQueue } from "./jobs";
import { createMailer } from "./mail/mailer";
import { outboxRoutes } from "./mail/outbox.routes";
import { automationModule } from "./modules/automation";
import { catalogueRoutes } from "./modules/catalogue/catalogue.routes";
import { cmsModule } from "./modules/cms";
import { cmsMediaRoutes } from "./modules/cms/media.routes";
import { cmsOpenApi } from "./modules/cms/openapi";
import { crmModule } from "./modules/crm";
import { damRoutes } from "./modules/dam/dam.routes";
import { createDamEvents } from "./modules/dam/events";
import { formsModule } from "./modules/forms";
import { modulesRoutes } from "./modules/modules/modules.routes";
import { pdfModule } from "./modules/pdf";
import { preferencesRoutes } from "./modules/preferences/preferences.routes";
import { storeModule } from "./modules/store";
import { usersRoutes } from "./modules/users/users.routes";
import { NotificationService, notificationRoutes } from "./notifications";
import { broadcastAdapter } from "./realtime/cluster-adapter";
import { createAccountEvents, createResourceEvents } from "./realtime/events";
import { attachRealtime } from "./realtime/socket";
import { type ResourceServices, registerResources } from "./resources/index";
import { customFieldsOpenApi } from "./resources/openapi";
import type { RulesRegistry } from "./resources/rules";
import { createRunEngine, type RunEngine } from "./runs";
import { searchRoutes } from "./search/search.routes";
import { securityEventRoutes } from "./security/events.routes";
import { redactingLogger, registerLogSecrets } from "./security/log-secrets";
import type { RouteSecrets } from "./security/redact";
import { loadSecretBox } from "./security/secret-box";
import { createSms } from "./sms";
import { createStorage } from "./storage";
import { assetRoutes } from "./storage/serve";
import { WebhookService } from "./webhooks/webhooks";

export interface AppOptions {
  config: Config;
  database: DatabaseHandle;
  logger?: FastifyServerOptions["logger"];
  /** Resources to serve; all of resources/index.ts by default (tests add throwaway ones). */
  resources?: readonly ResourceDefinition[];
  /** Business rules by resource name; RULES of server/resources/index.ts by default. */
  rules?: RulesRegistry;
}

export interface App {
  app: FastifyInstance;
  ctx: AppContext;
  /** Routes as registered, with their access rule (for the route-table test). */
  routes: Array<{
    method: string;
    url: string;
    access: unknown;
    /** `config.idempotent`: honours the Idempotency-Key header. */
    idempotent: boolean;
    /** Declares a JSON body schema. */
    jsonBody: boolean;
    /** `config.secrets`: what its requests carry that the log must not (security/redact.ts). */
    secrets: RouteSecrets | undefined;
    /** The query string's schema, whose property names the log-secrets test reads. */
    querystring: unknown;
  }>;
  services: ResourceServices;
}

export async function buildApp({ config, database, logger, resources, rules }: AppOptions): Promise<App> {
  // Secrets never reach a log line: each route names its own (`config.secrets`), the reset
  // link's page keeps a path rule (server/security/redact.ts).
  const logging = redactingLogger(logger ?? { level: config.logLevel });
  const app = Fastify({
    logger: logging.logger,
    trustProxy: config.trustProxy,
    bodyLimit: 1024 * 1024,
    return503OnClosing: true,
    frameworkErrors,
  });
  app.setValidatorCompiler(validatorCompiler);
  app.setErrorHandler(handleError);
  // Before any route and any other hook: every route's secrets join the log's rules, and its
  // requests log through a logger that knows them.
  registerLogSecrets(app, logging);
  // Before any route: every scope inherits the headers hook, and compression is set per route.
  registerSecurityHeaders(app, config);
  await registerCompression(app);

  const routes: App["routes"] = [];
  app.addHook("onRoute", (route) => {
    const methods = Array.isArray(route.method) ? route.method : [route.method];
    // Read the rule lazily: a scope's own onRoute hook (markScopePublic) runs after this one.
    for (const method of methods) {
      routes.push({
        method,
        url: route.url,
        get access() {
          return route.config?.access;
        },
        get idempotent() {
          return route.config?.idempotent === true;
        },
        get jsonBody() {
          return Boolean(route.schema?.body);
        },
        get secrets() {
          return route.config?.secrets;
        },
        get querystring() {
          return route.schema?.querystring;
        },
      });
    }
  });

  const { db } = database;
  // Lost connections are replaced on demand (server/db/postgres.ts); the log says when.
  database.onConnectionError((err) => app.log.warn({ reason: err.message }, "database connection lost"));
  await seedModules(db);
  const secret = await loadJwtSecret(db, config.jwtSecret);
  // Before the mailer: it reads attachments from storage when it sends.
  const storage = await createStorage(config);
  const mailer = createMailer(db, { smtpUrl: config.smtpUrl, from: config.mailFrom, log: app.log, storage });
  const ctx: AppContext = {
    config,
    db,
    tokens: createTokenService(secret, config.accessTokenTtl),
    secrets: await loadSecretBox(db, config.encryptionKey),
    mailer,
    log: app.log,
    events: createResourceEvents(),
    accountEvents: createAccountEvents(),
    principals: new PrincipalCache(config.sessionCacheMs),
    broadcast: database.broadcast,
    storage,
    damEvents: createDamEvents(),
    // PGlite is one process (the DATA_DIR lock): jobs it left running are taken back at once.
    // Background work has its own connections (server/db/postgres.ts): requests queuing for
    // theirs never stall it. Background jobs (webhook deliveries) yield while requests keep the
    // server busy (server/http/pressure.ts).
    jobs: createJobQueue({
      db: database.jobsDb,
      log: app.log,
      reclaimOnStart: database.kind === "pglite",
      busy: requestPressure(app.server),
    }),
    // Set just below: the sender and the run engine register their jobs on the queue above.
    webhooks: undefined as unknown as WebhookService,
    notifications: undefined as unknown as NotificationService,
    runs: undefined as unknown as RunEngine,
    sms: undefined as unknown as AppContext["sms"],
  };
  ctx.webhooks = new WebhookService(ctx);
  ctx.notifications = new NotificationService(ctx);
  ctx.runs = createRunEngine({ db: database.jobsDb, jobs: ctx.jobs, log: app.log });
  ctx.sms = createSms(config, ctx);
  watchSessionChanges(ctx);
  await ensureFirstAdmin(db, config, app.log);

  await registerOpenApi(app);
  registerAccessGuard(app, ctx);
  // The guards first: a body nested too deep is refused before the idempotency key's hash
  // walks it.
  registerInputGuards(app);
  // Before any route (it documents the header on each) and before any onSend hook that
  // turns answers into streams (compression): it stores the answer as sent.
  registerIdempotency(app, ctx);

  await app.register(authRoutes, ctx);
  await app.register(secondFactorRoutes, ctx);
  await app.register(usersRoutes, ctx);
  await app.register(modulesRoutes, ctx);
  await app.register(preferencesRoutes, ctx);
  await app.register(notificationRoutes, ctx);
  await app.register(outboxRoutes, ctx);
  await app.register(securityEventRoutes, ctx);
  let services: ResourceServices = new Map();
  let cms: Awaited<ReturnType<typeof cmsModule>> | undefined;
  await app.register(async (scope) => {
    services = registerResources(scope, ctx, resources, rules);
    await searchRoutes(
      scope,
      ctx,
      [...services.values()].map((s) => s.def),
    );
    await catalogueRoutes(scope, ctx, services);
    await pdfModule(scope, ctx, services);
    cms = await cmsModule(scope, ctx);
    const forms = await formsModule(scope, ctx);
    await crmModule(scope, ctx, { submissions: forms.writer });
    await automationModule(scope, ctx, {
      submissions: forms.writer,
      cms: cms?.lifecycle,
      automations: services.get("automations"),
    });
    await storeModule(scope, ctx);
  });
  await damRoutes(app, ctx, async (scope, dam) => {
    if (cms) await cmsMediaRoutes(scope, ctx, dam, cms.registry);
  });
  await assetRoutes(app, ctx);
  await healthRoutes(app, db);
  await registerOpenApiUi(app, [
    ...(cms ? [cmsOpenApi(cms.registry)] : []),
    customFieldsOpenApi(() => services.values()),
  ]);
  // The admin page frames the CMS domains' sites: an entry's live preview.
  await spaRoutes(app, config, { frameSrc: () => cms?.previewOrigins.current() ?? Promise.resolve([]) });
  // On PostgreSQL, N instances may share the database: socket events reach every instance's
  // sockets through it. PGlite is one process: socket.io's in-memory adapter is all it needs.
  const adapter =
    database.kind === "postgres"
      ? broadcastAdapter(database.broadcast, {
          onError: (err) =>
            app.log.warn({ reason: err.message }, "socket events not sent to other instances"),
        })
      : undefined;
  attachRealtime(app, ctx, { resources, adapter });

  await ctx.jobs.start();
  app.addHook("onClose", async () => {
    await ctx.jobs.stop();
    await mailer.stop();
    await ctx.storage.close();
  });
  return { app, ctx, routes, services };
}
