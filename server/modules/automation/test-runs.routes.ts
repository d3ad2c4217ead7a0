/**
 * Test runs of an automation's draft (issue 30; docs/automation-api.md, "Test runs"): run the
 * draft against a sample with nothing sent and nothing kept (`POST …/test`, test-run.ts), the
 * person's last test (`GET …/test`), and the records a test may start with (`GET …/test-samples`).
 * The Automation module, as editing the automation; the CRM module too when the flow reads or
 * changes CRM records (as a publish).
 */
import type { FastifyInstance } from "fastify";
import { MODULE_IDS } from "../../../resources/modules";
import { STEP_ID_PATTERN } from "../../../schemas/automation";
import { moduleAccess, principalOf } from "../../auth/access";
import type { AppContext } from "../../context";
import { idParams, uuid } from "../../http/route-params";
import { requireCrm, touchesCrm } from "./crm-access";
import { definitionsOf } from "./definitions";
import { TestRunner, type TestSample } from "./test-run";
import { sampleCandidates, sampleNoun } from "./test-samples";

const config = { access: moduleAccess(MODULE_IDS.automation) };
const security = [{ bearer: [] }];
const tags = ["automations"];

const sampleSchema = {
  type: "object",
  title: "Sample",
  additionalProperties: false,
  required: ["kind"],
  properties: {
    kind: { type: "string", title: "Kind of sample", enum: ["record", "variables"] },
    id: { ...uuid, title: "Record" },
    values: {
      type: "object",
      title: "Values",
      maxProperties: 200,
      propertyNames: {
        pattern: "^(?!.*(?:^|\\.)(?:__proto__|constructor|prototype)(?:\\.|$))[A-Za-z_][\\w.-]{0,99}$",
      },
      additionalProperties: { type: "string", maxLength: 10_000 },
    },
    clientId: { ...uuid, title: "Client" },
  },
} as const;

export async function automationTestRoutes(app: FastifyInstance, ctx: AppContext) {
  const runner = new TestRunner(ctx);

  app.post<{ Params: { id: string }; Body: { sample?: TestSample; stepId?: string } }>(
    "/api/automations/:id/test",
    {
      config,
      bodyLimit: 512 * 1024,
      schema: {
        tags,
        security,
        summary:
          "Test the draft against a sample: each step's result, what would be sent (nothing is sent, nothing kept); with `stepId`, that step again with the last test's outputs",
        params: idParams,
        body: {
          type: "object",
          additionalProperties: false,
          properties: {
            sample: sampleSchema,
            stepId: { type: "string", title: "Step", pattern: STEP_ID_PATTERN },
          },
        },
      },
    },
    async (request) => {
      const { userId } = principalOf(request);
      const { draft } = await definitionsOf(ctx.db, request.params.id);
      if (touchesCrm(draft)) requireCrm(request, "Testing this automation");
      return runner.test(request.params.id, userId, request.body ?? {});
    },
  );

  app.get<{ Params: { id: string } }>(
    "/api/automations/:id/test",
    {
      config,
      schema: {
        tags,
        security,
        summary: "Your last test run of this automation (`test`: null when none)",
        params: idParams,
      },
    },
    async (request) => {
      const { draft } = await definitionsOf(ctx.db, request.params.id);
      if (touchesCrm(draft)) requireCrm(request, "Reading this automation's test");
      return { test: await runner.last(request.params.id, principalOf(request).userId) };
    },
  );

  app.get<{ Params: { id: string }; Querystring: { q?: string } }>(
    "/api/automations/:id/test-samples",
    {
      config,
      schema: {
        tags,
        security,
        summary:
          "Records of the draft trigger's kind a test may start with (`noun` null: fill its variables instead)",
        params: idParams,
        querystring: {
          type: "object",
          additionalProperties: false,
          properties: { q: { type: "string", title: "Search", maxLength: 100 } },
        },
      },
    },
    async (request) => {
      const { draft } = await definitionsOf(ctx.db, request.params.id);
      const noun = sampleNoun(draft.trigger.kind);
      if (noun && touchesCrm(draft)) requireCrm(request, "Testing this automation with a record");
      const data = await sampleCandidates(ctx.db, draft.trigger, request.query.q ?? "");
      return { trigger: draft.trigger.kind, noun, data, total: data.length };
    },
  );
}
