/** Token info, API info, and who/where the caller is. */
import { ok, type RouteDefinition } from "../context";
import { organizationView, userView } from "../views";

export const metaRoutes: RouteDefinition[] = [
  {
    method: "GET",
    path: "/token-info",
    underApiRoot: true,
    auth: "token",
    handler: (ctx) => {
      const token = ctx.token;
      return ok({
        token_name: token.name,
        display_token: token.display,
        api_version: token.kind,
        organization_id: token.orgId,
        base_path: `/api/${token.kind}`,
      });
    },
  },
  {
    method: "GET",
    path: "/",
    auth: "none",
    handler: (ctx) =>
      ok({
        name: "Device Management API (local emulator)",
        description:
          "A local emulator of the device-management REST API v3: organizations, users and roles, groups, " +
          "devices, apps and release channels, files and videos, audit records.",
        version: "v3",
        documentation: "emulator/README.md in the pulumi-devicemgmt package",
        authentication:
          "Bearer token; required on every operation except GET /. The emulator's seeded tokens are printed " +
          "when it starts.",
        rateLimiting: ctx.services.describeRateLimit(),
        contact: "The pulumi-devicemgmt maintainers",
        termsOfService: "Apache-2.0; a test double, not the real service.",
      }),
  },
  {
    method: "GET",
    path: "/current-organization",
    auth: "user",
    handler: (ctx) => ok(organizationView(ctx.org.org)),
  },
  {
    method: "GET",
    path: "/current-user",
    auth: "user",
    handler: (ctx) => ok(userView(ctx.org, ctx.user)),
  },
];
