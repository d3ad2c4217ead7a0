/**
 * A proposal's public link, no sign-in (issue 18): `/public/proposals/{token}` shows the client
 * the proposal (a page rendered here, see proposal-page.ts), and `…/accept` and `…/decline`
 * take their answer — as a plain form post (the page again, saying what happened) or as JSON.
 * Only sent proposals take an answer; the token is long and random, and each address is
 * rate limited.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import { markScopePublic } from "../../auth/access";
import { hit } from "../../auth/rate-limit";
import type { AppContext } from "../../context";
import { inlineScriptHashes } from "../../http/built-pages";
import { HttpError, notFound, tooManyRequests } from "../../http/errors";
import { pageHeaders } from "../../http/security-headers";
import { type PageState, renderProposalPage } from "./proposal-page";
import type { ProposalsService } from "./proposals.service";

const TOKEN = /^[A-Za-z0-9_-]{16,64}$/;
const VIEWS_PER_MINUTE = 120;
const ANSWERS_PER_MINUTE = 20;

const params = {
  type: "object",
  required: ["token"],
  properties: { token: { type: "string", minLength: 1, maxLength: 100, title: "Link" } },
} as const;

/** The token is the link: whoever holds it reads the proposal and answers it. */
const secrets = { params: ["token"] };

const ANSWERED: Record<string, string> = {
  accepted: "Thank you: you accepted this proposal. We will be in touch.",
  declined: "You declined this proposal. Thank you for letting us know.",
};

export async function publicProposalRoutes(
  app: FastifyInstance,
  ctx: AppContext,
  proposals: ProposalsService,
) {
  const limit = async (request: FastifyRequest, kind: string, most: number) => {
    if ((await hit(ctx.db, `proposal-${kind}:${request.ip}`, 60)) > most) throw tooManyRequests();
  };
  const viewOf = (token: string) => {
    if (!TOKEN.test(token)) throw notFound("No such proposal");
    return proposals.viewByToken(token);
  };

  async function page(reply: FastifyReply, token: string, state: PageState = {}, status = 200) {
    const html = renderProposalPage(await viewOf(token), token, state);
    return reply
      .status(status)
      .headers({
        "cache-control": "no-store",
        ...pageHeaders(ctx.config, "public", {
          scriptHashes: inlineScriptHashes(html),
          frameAncestors: ["'none'"],
        }),
      })
      .type("text/html; charset=utf-8")
      .send(html);
  }

  await app.register(async (scope) => {
    markScopePublic(scope);
    // The page's buttons post plain forms: nothing in them is read.
    scope.addContentTypeParser(
      "application/x-www-form-urlencoded",
      { parseAs: "string", bodyLimit: 4096 },
      (_request, _body, done) => done(null, {}),
    );

    scope.get<{ Params: { token: string }; Querystring: { answer?: string } }>(
      "/public/proposals/:token",
      {
        config: { secrets },
        schema: {
          tags: ["public"],
          summary: "A sent proposal as its client sees it, with Accept and Decline",
          params,
        },
      },
      async (request, reply) => {
        await limit(request, "view", VIEWS_PER_MINUTE);
        const answered = ANSWERED[String((request.query as { answer?: string }).answer)];
        return page(reply, request.params.token, answered ? { message: { text: answered } } : {});
      },
    );

    for (const answer of ["accepted", "declined"] as const) {
      const verb = answer === "accepted" ? "accept" : "decline";
      scope.post<{ Params: { token: string } }>(
        `/public/proposals/:token/${verb}`,
        {
          config: { secrets },
          schema: {
            tags: ["public"],
            summary: `${verb === "accept" ? "Accept" : "Decline"} a sent proposal (a form post or JSON)`,
            params,
          },
        },
        async (request, reply) => {
          await limit(request, "answer", ANSWERS_PER_MINUTE);
          const json = String(request.headers["content-type"] ?? "").startsWith("application/json");
          const { token } = request.params;
          if (!TOKEN.test(token)) throw notFound("No such proposal");
          try {
            const row = await proposals.decide(token, answer);
            if (json) return { status: row.status, number: row.number };
            return reply.status(303).header("location", `/public/proposals/${token}?answer=${answer}`).send();
          } catch (error) {
            // The plain form hears a refusal as the page, saying why.
            if (json || !(error instanceof HttpError) || error.statusCode === 404 || error.statusCode === 429)
              throw error;
            return page(reply, token, { message: { text: error.message, bad: true } }, error.statusCode);
          }
        },
      );
    }
  });
}
