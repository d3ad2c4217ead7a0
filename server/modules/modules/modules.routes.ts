/** The module catalogue (spec §6): what can be granted. */
import type { FastifyInstance } from "fastify";
import { SIGNED_IN } from "../../auth/access";
import type { AppContext } from "../../context";

export async function modulesRoutes(app: FastifyInstance, ctx: AppContext) {
  app.get(
    "/api/modules",
    {
      config: { access: SIGNED_IN },
      schema: { tags: ["modules"], security: [{ bearer: [] }], summary: "All modules" },
    },
    async () => {
      const rows = await ctx.db.selectFrom("modules").selectAll().orderBy("module_id").execute();
      const data = rows.map((r) => ({
        moduleID: r.module_id,
        key: r.key,
        name: r.name,
        description: r.description,
        icon: r.icon,
      }));
      return { data, total: data.length };
    },
  );
}
