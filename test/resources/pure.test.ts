// Pure resource logic, tested without Pulumi or HTTP: input checks, diffs, attach/detach sets, ids, settings.
import {
  checkProperties,
  diffProperties,
  jsonClean,
  UNKNOWN,
  uuid,
  connectionOf,
  diffKind,
} from "../../provider/framework";
import { diffGroup, groupHandler, unconfigureFailure } from "../../provider/kinds/group/handler";
import { diffUser, userHandler } from "../../provider/kinds/user/handler";
import {
  findDuplicateGroupRoles,
  groupRoleActions,
  userUpdateBodies,
  type GroupRole,
} from "../../provider/kinds/user/roles";
import { attachmentId, parseAttachmentId } from "../../provider/kinds/attachment/properties";
import { groupReleaseChannelHandler } from "../../provider/kinds/attachment/definitions";
import {
  deviceMigrationHandler,
  diffMigration,
  migrationForbiddenMessage,
} from "../../provider/kinds/deviceMigration/handler";
import { clientFor, resolveConnection, stackSettingsFrom } from "../../provider/connection";
import { DEFAULT_PROCESSING_TIMEOUT_MS } from "../../provider/client";
import { groupFileKind } from "../../provider/kinds/attachment/definitions";
import { ConnectionSettingError, OrganizationMoveError } from "../../provider/errors";
import { z } from "zod";

const A = "11111111-1111-4111-8111-111111111111";
const B = "22222222-2222-4222-8222-222222222222";
const C = "33333333-3333-4333-8333-333333333333";
const D = "44444444-4444-4444-8444-444444444444";

describe("checkProperties", () => {
  const shape = { name: z.string().min(1), id: uuid("id"), tags: z.array(z.string()).optional() };

  it("returns one failure per bad property, with the property named in the reason", () => {
    const { failures } = checkProperties("Thing", shape, { name: "", id: "not-a-uuid", tags: [1] });
    expect(failures.map((f) => f.property).sort()).toEqual(["id", "name", "tags"]);
    expect(failures.find((f) => f.property === "tags")?.reason).toMatch(/^tags\[0\]:/);
    expect(failures.find((f) => f.property === "id")?.reason).toMatch(/id must be an id/);
  });

  it("lets values unknown during preview through untouched", () => {
    const { inputs, failures } = checkProperties("Thing", shape, {
      name: "x",
      id: UNKNOWN,
      tags: ["a", UNKNOWN],
    });
    expect(failures).toEqual([]);
    expect(inputs).toEqual({ name: "x", id: UNKNOWN, tags: ["a", UNKNOWN] });
  });

  it("refuses properties the resource does not have, but ignores engine keys", () => {
    const { failures } = checkProperties("Thing", shape, {
      name: "x",
      id: A,
      colour: "red",
      __provider: "p",
    });
    expect(failures).toEqual([{ property: "colour", reason: "colour is not a property of Thing." }]);
  });
});

describe("jsonClean", () => {
  it("drops undefined at every depth (the plugin cannot encode it) and keeps null", () => {
    expect(jsonClean({ a: undefined, b: null, c: [{ d: undefined, e: 1 }] })).toEqual({
      b: null,
      c: [{ e: 1 }],
    });
  });
});

describe("Group check and diff", () => {
  it("defaults parentId to null and configured to false, and trims the name", async () => {
    const { inputs, failures } = await groupHandler.check({}, { name: "  Lab  " });
    expect(failures).toEqual([]);
    expect(inputs).toEqual({ name: "Lab", parentId: null, configured: false });
  });

  it("refuses configured true -> false with a message saying configuring is irreversible", async () => {
    const { failures } = await groupHandler.check(
      { name: "x", configured: true },
      { name: "x", configured: false },
    );
    expect(failures).toHaveLength(1);
    expect(failures![0].property).toBe("configured");
    expect(failures![0].reason).toMatch(/irreversible/);
    expect(unconfigureFailure({ configured: false }, { configured: true })).toBeUndefined();
  });

  it("reports a rename, a re-parent and configuring as in-place updates", () => {
    const olds = { name: "a", parentId: null, configured: false, deviceCount: 3 };
    expect(diffGroup(olds, { name: "a", parentId: null, configured: false })).toMatchObject({
      changes: false,
      replaces: [],
    });
    expect(diffGroup(olds, { name: "b", parentId: null, configured: false })).toMatchObject({
      changes: true,
      replaces: [],
    });
    expect(diffGroup(olds, { name: "a", parentId: A, configured: false })).toMatchObject({
      changes: true,
      replaces: [],
    });
    expect(diffGroup(olds, { name: "a", parentId: null, configured: true })).toMatchObject({
      changes: true,
      replaces: [],
    });
  });

  it("treats an absent parentId as root and ignores adoptId and output-only properties", () => {
    expect(
      diffGroup({ name: "a", parentId: null, configured: false, deviceCount: 9 }, { name: "a", adoptId: A }),
    ).toMatchObject({
      changes: false,
    });
  });

  it("counts an unknown new value as a change", () => {
    expect(diffGroup({ name: "a", parentId: A }, { name: "a", parentId: UNKNOWN })).toMatchObject({
      changes: true,
    });
  });

  it("replaces when the connection moves to another organization; a new token alone updates in place", () => {
    const olds = { name: "a", connection: { baseUrl: "http://x/api/v3", apiToken: "1|old" } };
    // In place, so the new token reaches the recorded outputs that a later delete uses.
    expect(
      diffGroup(olds, { name: "a", connection: { baseUrl: "http://x/api/v3", apiToken: "2|new" } }),
    ).toMatchObject({
      changes: true,
      replaces: [],
    });
    // The API said the new token belongs to another organization: a replacement.
    expect(
      diffGroup(olds, { name: "a", connection: { baseUrl: "http://x/api/v3", apiToken: "2|new" } }, false),
    ).toMatchObject({ replaces: ["connection"] });
    expect(
      diffGroup(olds, { name: "a", connection: { baseUrl: "http://y/api/v3", apiToken: "1|old" } }),
    ).toMatchObject({
      changes: true,
      replaces: ["connection"],
    });
  });
});

describe("a connection move to another organization of a kind replaced delete-first", () => {
  const olds = { groupId: A, fileId: B, connection: { baseUrl: "http://x/api/v3", apiToken: "1|old" } };
  const moved = { ...olds, connection: { baseUrl: "http://x/api/v3", apiToken: "2|other" } };

  it("is refused (delete-first would detach in the first organization before the other attaches)", () => {
    let refused: unknown;
    try {
      diffKind(groupFileKind, olds, moved, false);
    } catch (error) {
      refused = error;
    }
    expect(refused).toBeInstanceOf(OrganizationMoveError);
    expect(refused).toMatchObject({
      kind: "GroupFile",
      property: "connection",
      fix: "declare it under a new resource name with the new connection",
    });
    // A changed base URL the API could not judge counts as another organization too.
    const otherUrl = { ...olds, connection: { baseUrl: "http://y/api/v3", apiToken: "1|old" } };
    expect(() => diffKind(groupFileKind, olds, otherUrl)).toThrow(OrganizationMoveError);
  });

  it("a new token of the same organization stays an in-place update", () => {
    expect(diffKind(groupFileKind, olds, moved, true)).toMatchObject({ changes: true, replaces: [] });
  });
});

describe("User group roles", () => {
  const r = (roleId: string, groupId: string): GroupRole => ({ roleId, groupId });

  it("computes only the difference as attach/detach actions", () => {
    expect(groupRoleActions([r(A, B), r(A, C)], [r(A, C), r(D, B)])).toEqual([
      { roleId: A, groupId: B, action: "detach" },
      { roleId: D, groupId: B, action: "attach" },
    ]);
    expect(groupRoleActions([r(A, B)], [r(A, B)])).toEqual([]);
  });

  it("finds duplicates", () => {
    expect(findDuplicateGroupRoles([r(A, B), r(A, C), r(A, B)])).toEqual([r(A, B)]);
  });

  it("check refuses duplicates and more than 100 entries, and sorts so order does not matter", async () => {
    const base = { firstName: "Ada", lastName: "L", email: "ada@example.com", defaultRoleId: A };
    const dup = await userHandler.check({}, { ...base, groupRoles: [r(A, B), r(A, B)] });
    expect(dup.failures?.[0]).toMatchObject({ property: "groupRoles" });
    expect(dup.failures?.[0].reason).toMatch(/duplicate/);
    const many = Array.from({ length: 101 }, (_, i) =>
      r(A, `${String(i).padStart(8, "0")}-1111-4111-8111-111111111111`),
    );
    const tooMany = await userHandler.check({}, { ...base, groupRoles: many });
    expect(tooMany.failures?.[0].reason).toMatch(/at most 100/);
    const one = await userHandler.check({}, { ...base, groupRoles: [r(D, C), r(A, B)] });
    const two = await userHandler.check({}, { ...base, groupRoles: [r(A, B), r(D, C)] });
    expect(one.inputs).toEqual(two.inputs);
  });

  it("check reports every bad property at once", async () => {
    const { failures } = await userHandler.check(
      {},
      { firstName: "", lastName: 3, email: "nope", defaultRoleId: "x" },
    );
    expect(failures?.map((f) => f.property).sort()).toEqual([
      "defaultRoleId",
      "email",
      "firstName",
      "lastName",
    ]);
  });

  it("diff: group roles are order-insensitive, names and roles update, e-mail replaces (case-insensitively)", () => {
    const olds = {
      firstName: "A",
      lastName: "B",
      email: "a@x.io",
      defaultRoleId: A,
      groupRoles: [r(A, B), r(A, C)],
    };
    expect(diffUser(olds, { ...olds, groupRoles: [r(A, C), r(A, B)] })).toMatchObject({ changes: false });
    expect(diffUser(olds, { ...olds, email: "A@X.io" })).toMatchObject({ changes: false });
    expect(diffUser(olds, { ...olds, lastName: "C" })).toMatchObject({ changes: true, replaces: [] });
    expect(diffUser(olds, { ...olds, groupRoles: [] })).toMatchObject({ changes: true, replaces: [] });
    expect(diffUser(olds, { ...olds, email: "b@x.io" })).toMatchObject({
      changes: true,
      replaces: ["email"],
    });
  });

  it("update bodies hold only what changed, with group roles in batches of 100", () => {
    const current = { firstName: "A", lastName: "B", defaultRoleId: A, groupRoles: [] as GroupRole[] };
    const want = {
      firstName: "A",
      lastName: "B",
      email: "a@x.io",
      defaultRoleId: A,
      groupRoles: [] as GroupRole[],
    };
    expect(userUpdateBodies(current, want)).toEqual([]);
    expect(userUpdateBodies(current, { ...want, lastName: "Z", defaultRoleId: D })).toEqual([
      { lastName: "Z", defaultRoleId: D },
    ]);
    const roles = Array.from({ length: 150 }, (_, i) =>
      r(A, `${String(i).padStart(8, "0")}-1111-4111-8111-111111111111`),
    );
    const bodies = userUpdateBodies(current, { ...want, firstName: "Q", groupRoles: roles });
    expect(bodies).toHaveLength(2);
    expect((bodies[0].groupRoles as unknown[]).length).toBe(100);
    expect((bodies[1].groupRoles as unknown[]).length).toBe(50);
    expect(bodies[0].firstName).toBe("Q");
    expect(bodies[1].firstName).toBeUndefined();
  });
});

describe("attachments", () => {
  it("ids are owner/releaseChannel and parse back", () => {
    expect(attachmentId(A, B)).toBe(`${A}/${B}`);
    expect(parseAttachmentId(`${A}/${B}`)).toEqual({ ownerId: A, attachedId: B });
    expect(parseAttachmentId("just-one")).toBeUndefined();
    expect(parseAttachmentId(`${A}/${B}/x`)).toBeUndefined();
  });

  it("any change of group or channel replaces", async () => {
    const olds = { groupId: A, releaseChannelId: B };
    expect(
      await groupReleaseChannelHandler.diff("", olds, { groupId: A, releaseChannelId: B }),
    ).toMatchObject({ changes: false });
    expect(
      await groupReleaseChannelHandler.diff("", olds, { groupId: C, releaseChannelId: B }),
    ).toMatchObject({
      replaces: ["groupId"],
    });
    expect(
      await groupReleaseChannelHandler.diff("", olds, { groupId: A, releaseChannelId: C }),
    ).toMatchObject({
      replaces: ["releaseChannelId"],
    });
  });
});

describe("DeviceMigration", () => {
  it("any change is another migration", () => {
    const olds = { deviceId: A, organizationSlug: "acme-staging", groupId: null };
    expect(diffMigration(olds, { deviceId: A, organizationSlug: "acme-staging" })).toMatchObject({
      changes: false,
    });
    expect(diffMigration(olds, { deviceId: A, organizationSlug: "other" }).replaces).toEqual([
      "organizationSlug",
    ]);
  });

  it("a 403 names the three permissions the migration needs", () => {
    const message = migrationForbiddenMessage(A, "acme-staging", B);
    for (const permission of ["DEVICE__MIGRATE", "ENROLLMENT__ENROLL_DEVICE", "GROUP__ADD_REMOVE_DEVICES"]) {
      expect(message).toContain(permission);
    }
  });

  it("check refuses a malformed slug", async () => {
    const { failures } = await deviceMigrationHandler.check(
      {},
      { deviceId: A, organizationSlug: "no spaces!" },
    );
    expect(failures?.map((f) => f.property)).toEqual(["organizationSlug"]);
  });
});

describe("a resource's own connection (connectionOf)", () => {
  it("reads what check left, keeps a value not known yet, and is none where no object is", () => {
    const connection = { baseUrl: "https://h.example/api/v3", apiToken: "1|t", allowInsecureHttp: true };
    expect(connectionOf({ connection })).toEqual(connection);
    expect(connectionOf({ connection: { baseUrl: UNKNOWN } })).toEqual({ baseUrl: UNKNOWN });
    expect(connectionOf({ connection: UNKNOWN })).toBeUndefined();
    expect(connectionOf({ connection: null })).toBeUndefined();
    expect(connectionOf({})).toBeUndefined();
  });
});

describe("connection settings", () => {
  const env = { DEVICEMGMT_BASE_URL: "http://127.0.0.1:8080/api/v3", DEVICEMGMT_API_TOKEN: "9|env" };

  it("prefers the resource's connection, then stack config, then the environment", () => {
    expect(
      resolveConnection(
        { apiToken: "1|res" },
        { baseUrl: "https://stack.example/api/v3", apiToken: "2|stack" },
        env,
      ),
    ).toEqual({
      baseUrl: "https://stack.example/api/v3",
      apiToken: "1|res",
    });
    expect(resolveConnection(undefined, {}, env)).toEqual({
      baseUrl: "http://127.0.0.1:8080/api/v3",
      apiToken: "9|env",
    });
  });

  it("plain http to another machine from stack config or environment needs the stack-wide opt-in", () => {
    const stack = { baseUrl: "http://stack/api/v3", apiToken: "2|stack" };
    expect(() => resolveConnection(undefined, stack, {})).toThrow(/devicemgmt:allowInsecureHttp/);
    expect(resolveConnection(undefined, { ...stack, allowInsecureHttp: true }, {})).toEqual({
      baseUrl: "http://stack/api/v3",
      apiToken: "2|stack",
    });
    expect(resolveConnection(undefined, stack, { DEVICEMGMT_ALLOW_INSECURE_HTTP: "true" }).baseUrl).toBe(
      "http://stack/api/v3",
    );
    const fromEnv = { DEVICEMGMT_BASE_URL: "http://env/api/v3", DEVICEMGMT_API_TOKEN: "9|env" };
    expect(() => resolveConnection(undefined, {}, fromEnv)).toThrow(/^DEVICEMGMT_BASE_URL .*in clear/);
    expect(
      resolveConnection(undefined, {}, { ...fromEnv, DEVICEMGMT_ALLOW_INSECURE_HTTP: "TRUE" }).baseUrl,
    ).toBe("http://env/api/v3");
    expect(resolveConnection(undefined, { allowInsecureHttp: true }, fromEnv).baseUrl).toBe(
      "http://env/api/v3",
    );
    // The stack-wide opt-in does not reach a resource's own connection: that one has its own flag.
    expect(() =>
      resolveConnection({ baseUrl: "http://res/api/v3" }, { ...stack, allowInsecureHttp: true }, {}),
    ).toThrow(/connection\.baseUrl .*allowInsecureHttp: true/);
  });

  it("a missing token names all three ways to give one", () => {
    expect(() => resolveConnection(undefined, { baseUrl: "http://127.0.0.1/api/v3" }, {})).toThrow(
      /devicemgmt:apiToken.*DEVICEMGMT_API_TOKEN.*connection/s,
    );
  });

  it("reads stack config by its full namespaced keys and validates requestsPerMinute", () => {
    const config: Record<string, string> = {
      "devicemgmt:baseUrl": "http://localhost:8080/api/v3",
      "devicemgmt:requestsPerMinute": "500",
    };
    expect(stackSettingsFrom((k) => config[k], {})).toEqual({
      baseUrl: "http://localhost:8080/api/v3",
      requestsPerMinute: 500,
    });
    expect(() => stackSettingsFrom((k) => ({ "devicemgmt:requestsPerMinute": "fast" })[k])).toThrow(
      /whole number of at least 1/,
    );
  });

  it("reads the upload part and processing timeouts in seconds, refusing what is not a whole number from 1", () => {
    const config: Record<string, string> = {
      "devicemgmt:uploadPartTimeoutSeconds": "600",
      "devicemgmt:processingTimeoutSeconds": "7200",
    };
    expect(stackSettingsFrom((k) => config[k], {})).toEqual({
      uploadPartTimeoutSeconds: 600,
      processingTimeoutSeconds: 7200,
    });
    for (const key of ["devicemgmt:uploadPartTimeoutSeconds", "devicemgmt:processingTimeoutSeconds"])
      for (const bad of ["0", "-5", "1.5", "ten", "30s"]) {
        const refused = (() => {
          try {
            stackSettingsFrom((k) => ({ [key]: bad })[k], {});
          } catch (error) {
            return error;
          }
        })();
        expect(refused).toBeInstanceOf(ConnectionSettingError);
        expect(refused).toMatchObject({
          property: key,
          message: `${key} must be a whole number of at least 1, got "${bad}".`,
        });
      }
  });

  it("gives the client the stack's timeouts (a client per setting, the default without one)", () => {
    const settings = { baseUrl: "http://localhost:8080/api/v3", apiToken: "t-timeouts" };
    expect(clientFor(settings).processingTimeoutMs).toBe(DEFAULT_PROCESSING_TIMEOUT_MS);
    expect(clientFor({ ...settings, processingTimeoutSeconds: 5 }).processingTimeoutMs).toBe(5000);
    expect(clientFor({ ...settings, uploadPartTimeoutSeconds: 9 }).storageTimeoutMs).toBe(9000);
  });

  it("reads devicemgmt:allowInsecureHttp as true or false", () => {
    const config: Record<string, string> = {
      "devicemgmt:baseUrl": "http://devices.lan/api/v3",
      "devicemgmt:allowInsecureHttp": "true",
    };
    expect(stackSettingsFrom((k) => config[k], {})).toEqual({
      baseUrl: "http://devices.lan/api/v3",
      allowInsecureHttp: true,
    });
    expect(
      stackSettingsFrom((k) => ({ "devicemgmt:baseUrl": "http://devices.lan/api/v3" })[k], {
        DEVICEMGMT_ALLOW_INSECURE_HTTP: "true",
      }).baseUrl,
    ).toBe("http://devices.lan/api/v3");
    expect(() => stackSettingsFrom((k) => ({ "devicemgmt:allowInsecureHttp": "yes" })[k], {})).toThrow(
      /devicemgmt:allowInsecureHttp must be true or false, got "yes"/,
    );
  });
});

describe("diffProperties", () => {
  it("uses per-property equality and defaults", () => {
    const spec = { updatable: ["a"], replaceOn: ["b"], equal: { a: () => true }, defaults: { b: 1 } };
    expect(diffProperties({ a: 1 }, { a: 2, b: 1 }, spec)).toMatchObject({ changes: false });
    expect(diffProperties({ b: 1 }, { b: 2 }, spec)).toMatchObject({ changes: true, replaces: ["b"] });
  });
});
