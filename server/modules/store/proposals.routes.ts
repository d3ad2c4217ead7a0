/**
 * A proposal's own routes beside the engine's `/api/proposals` (issue 18): its lines, sending,
 * the PDF and "convert to cart". The Online store module on every one; thin: the work is in
 * ProposalsService and proposalCart.
 */
import type { FastifyInstance } from "fastify";
import { MODULE_IDS } from "../../../resources/modules";
import { type ProposalLineBody, proposalLinesBodySchema } from "../../../schemas/proposal-lines";
import { moduleAccess, principalOf } from "../../auth/access";
import type { StoreConnections } from "./connections.service";
import { proposalCart } from "./proposal-cart.service";
import { proposalPdf } from "./proposal-pdf";
import type { ProposalsService, ProposalView } from "./proposals.service";

const config = { access: moduleAccess(MODULE_IDS.store) };
const security = [{ bearer: [] }];
const tags = ["proposals"];
const PATH = "/api/proposals/:id";

const params = {
  type: "object",
  required: ["id"],
  properties: { id: { type: "string", format: "uuid", title: "Proposal" } },
} as const;

/** Lines and money as the proposal's page shows them (minor units, and the lines as stored). */
const linesAnswer = (view: ProposalView) => ({ lines: view.lines, totals: view.totals });

const sendBody = {
  type: "object",
  additionalProperties: false,
  properties: {
    mail: { type: "boolean", title: "Mail the client" },
    message: { type: "string", title: "Message", maxLength: 2000 },
  },
} as const;

export async function proposalRoutes(
  app: FastifyInstance,
  proposals: ProposalsService,
  connections: StoreConnections,
) {
  app.get<{ Params: { id: string } }>(
    `${PATH}/lines`,
    { config, schema: { tags, security, summary: "A proposal's lines and totals", params } },
    async (request) => linesAnswer(await proposals.view(request.params.id)),
  );

  app.put<{ Params: { id: string }; Body: { lines: ProposalLineBody[] } }>(
    `${PATH}/lines`,
    {
      config,
      schema: {
        tags,
        security,
        summary: "Replace a draft proposal's lines (products, quantities, line discounts)",
        params,
        body: proposalLinesBodySchema,
      },
    },
    async (request) =>
      linesAnswer(
        await proposals.setLines(request.params.id, request.body.lines, principalOf(request).userId),
      ),
  );

  app.post<{ Params: { id: string }; Body: { mail?: boolean; message?: string } }>(
    `${PATH}/send`,
    {
      config: { ...config, idempotent: true },
      schema: {
        tags,
        security,
        summary: "Send a draft proposal: makes its public link, and mails the client if asked",
        params,
        body: sendBody,
      },
    },
    async (request) => {
      const { row, link } = await proposals.send(
        request.params.id,
        request.body ?? {},
        principalOf(request).userId,
      );
      return { id: row.id, number: row.number, status: row.status, link };
    },
  );

  app.get<{ Params: { id: string } }>(
    `${PATH}/pdf`,
    {
      config,
      schema: { tags, security, summary: "The proposal as a PDF", params },
    },
    async (request, reply) => {
      const view = await proposals.view(request.params.id);
      const name = `proposal-${String(view.proposal.number ?? view.proposal.id).replace(/[^A-Za-z0-9-]/g, "")}.pdf`;
      return reply
        .type("application/pdf")
        .header("content-disposition", `attachment; filename="${name}"`)
        .header("cache-control", "no-store")
        .send(Buffer.from(await proposalPdf(view)));
    },
  );

  app.post<{ Params: { id: string } }>(
    `${PATH}/cart`,
    {
      config: { ...config, idempotent: true },
      schema: {
        tags,
        security,
        summary: "Make a cart of the proposal in the default store; answers its checkout link",
        params,
        body: { type: "object", additionalProperties: false, properties: {} },
      },
    },
    async (request, reply) =>
      reply.status(201).send(await proposalCart(proposals, connections, request.params.id)),
  );
}
