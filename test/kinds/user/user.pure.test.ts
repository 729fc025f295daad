// Pure rules of User, without Pulumi or HTTP: check, diff and update bodies, group roles above all.
import { diffUser, userHandler } from "../../../provider/kinds/user/handler";
import {
  findDuplicateGroupRoles,
  groupRoleActions,
  userUpdateBodies,
  type GroupRole,
} from "../../../provider/kinds/user/roles";

const A = "11111111-1111-4111-8111-111111111111";
const B = "22222222-2222-4222-8222-222222222222";
const C = "33333333-3333-4333-8333-333333333333";
const D = "44444444-4444-4444-8444-444444444444";

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
