/**
 * The public addresses in a CRM email (issue 27; docs/crm-api.md, "Opens and clicks"): no
 * sign-in, each signed by the server (server/mail/tracking.ts).
 *
 * - `GET /public/mail/{id}/open.gif?s=…` answers a transparent 1×1 GIF and counts an open.
 * - `GET /public/mail/{id}/click?u=…&s=…` counts a click and redirects (302) to `u`.
 *
 * The signature is checked first: without one, or with one that does not match the mail and
 * the address, the answer is a 400 or 404 and nothing is counted or redirected to, so the route
 * is never an open redirect. A signed address of a mail since deleted still answers (the GIF,
 * the redirect) and counts nothing. `s` and `u` are the route's secrets: never in a log line
 * (a link may carry someone's token in its query).
 *
 * Only a GET counts: a HEAD (a link checker, a mail scanner asking what is there) is answered
 * and not counted. Past RECORDS_PER_MINUTE fetches from one address in a minute, fetches are
 * answered and not counted: a mail provider's image proxy fetches for many readers from a few
 * addresses, so refusing would break a person's link.
 */
import type { FastifyInstance, FastifyRequest } from "fastify";
import { UUID } from "../../../schemas/uuid";
import { markScopePublic } from "../../auth/access";
import { hit } from "../../auth/rate-limit";
import type { AppContext } from "../../context";
import { badRequest, notFound } from "../../http/errors";
import {
  clickSignature,
  MAX_TRACKED_URL,
  openSignature,
  PIXEL_GIF,
  redirectTarget,
  sameSignature,
  TRACKING_PATH,
} from "../../mail/tracking";
import { recordClick, recordOpen } from "./email-tracking";

const RECORDS_PER_MINUTE = 1200;
/** A signature is 43 base64url characters (SHA-256); anything much longer is not one. */
const MAX_SIGNATURE = 100;

const params = {
  type: "object",
  required: ["id"],
  properties: { id: { type: "string", maxLength: 64, title: "Mail" } },
} as const;
const signature = { type: "string", maxLength: MAX_SIGNATURE, title: "Signature" } as const;

const NOT_SIGNED = "This link is not valid: it was changed after it was sent, or it was never ours";

export async function emailTrackingRoutes(app: FastifyInstance, ctx: AppContext) {
  /** Counts unless it is a HEAD or the address is past its rate; a failure to count is logged, not answered. */
  async function count(request: FastifyRequest, record: () => Promise<void>) {
    if (request.method !== "GET") return;
    try {
      if ((await hit(ctx.db, `mail-track:${request.ip}`, 60)) > RECORDS_PER_MINUTE) return;
      await record();
    } catch (error) {
      // The person still gets the image or their page; the count is what is lost.
      request.log.warn({ reason: (error as Error).message }, "an email's open or click was not counted");
    }
  }

  await app.register(async (scope) => {
    markScopePublic(scope);

    scope.get<{ Params: { id: string }; Querystring: { s: string } }>(
      `${TRACKING_PATH}/:id/open.gif`,
      {
        config: { secrets: { query: ["s"] } },
        schema: {
          tags: ["public"],
          summary: "A CRM email's tracking pixel: a transparent GIF; counts an open",
          params,
          querystring: {
            type: "object",
            required: ["s"],
            properties: { s: signature },
          },
        },
      },
      async (request, reply) => {
        const { id } = request.params;
        if (!UUID.test(id) || !sameSignature(request.query.s, openSignature(ctx.tokens, id)))
          throw notFound(NOT_SIGNED);
        await count(request, () => recordOpen(ctx, id));
        return reply
          .headers({ "cache-control": "no-store, private", "content-length": String(PIXEL_GIF.length) })
          .type("image/gif")
          .send(PIXEL_GIF);
      },
    );

    scope.get<{ Params: { id: string }; Querystring: { u: string; s: string } }>(
      `${TRACKING_PATH}/:id/click`,
      {
        config: { secrets: { query: ["s", "u"] } },
        schema: {
          tags: ["public"],
          summary: "A link of a CRM email: counts a click and redirects to the link's address",
          params,
          querystring: {
            type: "object",
            required: ["u", "s"],
            properties: {
              u: { type: "string", minLength: 1, maxLength: MAX_TRACKED_URL, title: "Link" },
              s: signature,
            },
          },
        },
      },
      async (request, reply) => {
        const { id } = request.params;
        const { u, s } = request.query;
        if (!UUID.test(id) || !sameSignature(s, clickSignature(ctx.tokens, id, u)))
          throw notFound(NOT_SIGNED);
        // Signed, so ours: still, only a web address is ever a redirect's target.
        const target = redirectTarget(u);
        if (!target)
          throw badRequest("This link does not lead to a web page", [
            { field: "u", message: "Link must be a web address (http or https)" },
          ]);
        await count(request, () => recordClick(ctx, id, u));
        return reply.code(302).headers({ "cache-control": "no-store", location: target.href }).send();
      },
    );
  });
}
