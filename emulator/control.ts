/**
 * The control endpoints under /_emulator (outside /api): faults, stats, snapshots, pending invitations. Admin
 * token required.
 */
import { timingSafeEqual } from "node:crypto";
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import { ZodError, z } from "zod";
import type { FaultInjector } from "./faults";
import { clockAdvanceSchema } from "./rollout";
import { snapshotOf } from "./snapshot";
import type { StatsCollector } from "./stats";
import { insertUser } from "./routes/users";
import type { OrgState, Store } from "./store";
import type { PendingInvitation } from "./types";
import { userView } from "./views";

function sameSecret(presented: string, expected: string): boolean {
  const a = Buffer.from(presented);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}

const snapshotQuery = z.object({ org: z.string().min(1).optional() });
const acceptBody = z.strictObject({
  email: z.string().min(1),
  org: z.string().min(1).optional(),
  firstName: z.string().trim().max(255).optional(),
  lastName: z.string().trim().max(255).optional(),
});

export function controlRoutes(options: {
  adminToken: string;
  store: Store;
  primaryOrgId: string;
  faults: FaultInjector;
  stats: StatsCollector;
  invitations: Map<string, PendingInvitation[]>;
}): (app: FastifyInstance) => void {
  const { adminToken, store, primaryOrgId, faults, stats, invitations } = options;
  const orgFor = (key: string | undefined): OrgState | undefined =>
    store.orgById(key || primaryOrgId) ?? store.orgBySlug(key || primaryOrgId);

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
    app.get("/_emulator/invitations", { onRequest: requireAdmin }, async (request, reply) => {
      const query = snapshotQuery.safeParse(request.query);
      const org = orgFor(query.success ? query.data.org : undefined);
      if (!org) return reply.code(404).send({ message: "Not Found" });
      return { data: invitations.get(org.org.id) ?? [] };
    });
    // The invitee accepts: the user record is created now, with the invitation's roles (those still there).
    app.post("/_emulator/invitations/accept", { onRequest: requireAdmin }, async (request, reply) => {
      const parsed = acceptBody.safeParse(request.body ?? {});
      if (!parsed.success) {
        return reply
          .code(422)
          .send({ message: "Unprocessable Entity", errors: z.flattenError(parsed.error).fieldErrors });
      }
      const org = orgFor(parsed.data.org);
      const pending = org ? (invitations.get(org.org.id) ?? []) : [];
      const index = pending.findIndex((i) => i.email.toLowerCase() === parsed.data.email.toLowerCase());
      if (!org || index < 0) return reply.code(404).send({ message: "Not Found" });
      const invitation = pending[index];
      if (!org.roles.get(invitation.defaultRoleId) || org.findUserByEmail(invitation.email)) {
        return reply.code(422).send({
          message: "Unprocessable Entity",
          errors: {
            email: ["The invitation can no longer be accepted (its role is gone or the e-mail is taken)."],
          },
        });
      }
      pending.splice(index, 1);
      const user = insertUser(
        org,
        new Date().toISOString(),
        {
          firstName: parsed.data.firstName ?? "",
          lastName: parsed.data.lastName ?? "",
          email: invitation.email,
          defaultRoleId: invitation.defaultRoleId,
        },
        invitation.groupRoles.filter((g) => org.roles.get(g.roleId) && org.groups.get(g.groupId)),
      );
      return reply.code(201).send(userView(org, user));
    });
    // Simulated rollouts: their configuration (durations, failing and stalled devices) and the emulator clock.
    const unprocessable = (reply: FastifyReply, error: ZodError) =>
      reply.code(422).send({ message: "Unprocessable Entity", errors: z.flattenError(error).fieldErrors });
    app.get("/_emulator/rollouts", { onRequest: requireAdmin }, async () => store.rollouts.config);
    app.put("/_emulator/rollouts", { onRequest: requireAdmin }, async (request, reply) => {
      try {
        return store.rollouts.update((request.body ?? {}) as never);
      } catch (error) {
        if (!(error instanceof ZodError)) throw error;
        return unprocessable(reply, error);
      }
    });
    app.get("/_emulator/clock", { onRequest: requireAdmin }, async () => ({
      now: store.rollouts.nowIso(),
      offsetMs: store.rollouts.clockOffsetMs,
    }));
    app.post("/_emulator/clock/advance", { onRequest: requireAdmin }, async (request, reply) => {
      const parsed = clockAdvanceSchema.safeParse(request.body ?? {});
      if (!parsed.success) return unprocessable(reply, parsed.error);
      return { now: store.rollouts.advance(parsed.data.ms), offsetMs: store.rollouts.clockOffsetMs };
    });
    app.get("/_emulator/snapshot", { onRequest: requireAdmin }, async (request, reply) => {
      const query = snapshotQuery.safeParse(request.query);
      const org = orgFor(query.success ? query.data.org : undefined);
      if (!org) return reply.code(404).send({ message: "Not Found" });
      return snapshotOf(org);
    });
  };
}
