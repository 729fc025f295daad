/** The control endpoints under /_emulator (outside /api): faults, stats, snapshots. Admin token required. */
import { timingSafeEqual } from "node:crypto";
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import { ZodError, z } from "zod";
import type { FaultInjector } from "./faults";
import { snapshotOf } from "./snapshot";
import type { StatsCollector } from "./stats";
import type { Store } from "./store";

function sameSecret(presented: string, expected: string): boolean {
  const a = Buffer.from(presented);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}

const snapshotQuery = z.object({ org: z.string().min(1).optional() });

export function controlRoutes(options: {
  adminToken: string;
  store: Store;
  primaryOrgId: string;
  faults: FaultInjector;
  stats: StatsCollector;
}): (app: FastifyInstance) => void {
  const { adminToken, store, primaryOrgId, faults, stats } = options;

  async function requireAdmin(request: FastifyRequest, reply: FastifyReply): Promise<FastifyReply | void> {
    const match = /^Bearer\s+(\S+)\s*$/i.exec(request.headers.authorization ?? "");
    if (!match || !sameSecret(match[1], adminToken)) return reply.code(401).send({ message: "Unauthorized" });
  }

  return (app) => {
    app.get("/_emulator/faults", { onRequest: requireAdmin }, async () => faults.config);
    app.put("/_emulator/faults", { onRequest: requireAdmin }, async (request, reply) => {
      try {
        return faults.update((request.body ?? {}) as never);
      } catch (error) {
        if (!(error instanceof ZodError)) throw error;
        return reply
          .code(422)
          .send({ message: "Unprocessable Entity", errors: z.flattenError(error).fieldErrors });
      }
    });
    app.get("/_emulator/stats", { onRequest: requireAdmin }, async () => stats.snapshot(faults.stats));
    app.post("/_emulator/stats/reset", { onRequest: requireAdmin }, async (_request, reply) => {
      stats.reset();
      faults.resetStats();
      return reply.code(204).send();
    });
    app.get("/_emulator/snapshot", { onRequest: requireAdmin }, async (request, reply) => {
      const query = snapshotQuery.safeParse(request.query);
      const key = (query.success && query.data.org) || primaryOrgId;
      const org = store.orgById(key) ?? store.orgBySlug(key);
      if (!org) return reply.code(404).send({ message: "Not Found" });
      return snapshotOf(org);
    });
  };
}
