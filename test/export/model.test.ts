// The model's pure parts: the tree order and its failures, which groups a lookup by name can find, and which
// users a program can declare.
import type { Role, User } from "../../provider/client";
import { UnexportableTreeError } from "../../provider/export/errors";
import { groupsNotFindableByName, groupTree } from "../../provider/export/model";
import { exportableUser } from "../../provider/export/read";
import { exampleGroups, group, id } from "./support";

const AT = "2024-03-04T07:00:00.000Z";

function role(name: string, type: "organization" | "group", label = `${type}/${name}`): Role {
  return { id: id(label), name, type, isOwnedBySystem: true, createdAt: AT, updatedAt: AT };
}

const ROLES = [role("Admin", "organization"), role("Member", "organization"), role("Group Admin", "group")];
const [ADMIN, MEMBER, GROUP_ADMIN] = ROLES;

function apiUser(
  email: string,
  grants: [Role, "organization" | "group" | "device", string][],
  names = ["Emil", "Lindqvist"],
): User {
  return {
    id: id(email),
    firstName: names[0],
    lastName: names[1],
    email,
    accessControls: grants.map(([r, type, target], i) => ({
      id: id(`${email}/${i}`),
      userId: id(email),
      role: r,
      protectable: { type, id: type === "organization" ? id("org") : id(target) },
      createdAt: AT,
      updatedAt: AT,
    })),
    createdAt: AT,
    updatedAt: AT,
  };
}

const paths = new Map(groupTree(exampleGroups()).map((g) => [g.id, g.path.join(" > ")]));

describe("groupTree", () => {
  it("orders depth-first, parents first, siblings by name then id, with each group's path", () => {
    const tree = groupTree([...exampleGroups()].reverse());
    expect(tree.map((g) => `${"  ".repeat(g.path.length - 1)}${g.name}`)).toEqual([
      "Acme Training",
      "  Americas",
      "    Austin Lab",
      "  EMEA",
      "    Berlin Lab",
    ]);
    expect(tree[4].path).toEqual(["Acme Training", "EMEA", "Berlin Lab"]);
  });

  it("refuses a tree with a parent the token cannot see, or a loop", () => {
    const hidden = () => groupTree([group("a", "A", "hidden")]);
    expect(hidden).toThrow(UnexportableTreeError);
    expect(hidden).toThrow(
      expect.objectContaining({
        kind: "Group",
        groupIds: [id("a")],
        fix: expect.stringMatching(/whole group tree/),
      }),
    );
    const loop = () => groupTree([group("a", "A", "b"), group("b", "B", "a")]);
    expect(loop).toThrow(UnexportableTreeError);
    expect(loop).toThrow(expect.objectContaining({ groupIds: [id("a"), id("b")] }));
  });
});

describe("groupsNotFindableByName", () => {
  it("marks same-named siblings and everything below them, and nothing else", () => {
    const tree = groupTree([
      ...exampleGroups(),
      group("spare-1", "Spare", "emea"),
      group("spare-2", "Spare", "emea"),
      group("below", "Shelf", "spare-1"),
      group("other-spare", "Spare", "americas"),
    ]);
    expect([...groupsNotFindableByName(tree)].sort()).toEqual(
      [id("below"), id("spare-1"), id("spare-2")].sort(),
    );
  });
});

describe("exportableUser", () => {
  it("maps the organization-wide grant to the default role and group grants to group roles, by name", () => {
    const result = exportableUser(
      apiUser("emil@acme.example", [
        [MEMBER, "organization", ""],
        [GROUP_ADMIN, "group", "berlin"],
      ]),
      ROLES,
      paths,
    );
    expect(result).toEqual({
      user: {
        id: id("emil@acme.example"),
        firstName: "Emil",
        lastName: "Lindqvist",
        email: "emil@acme.example",
        defaultRole: { name: "Member", type: "organization" },
        groupRoles: [{ role: { name: "Group Admin", type: "group" }, groupId: id("berlin") }],
      },
      notes: [],
    });
  });

  it("keeps the user but notes a role on a device, which no resource manages", () => {
    const result = exportableUser(
      apiUser("emil@acme.example", [
        [ADMIN, "organization", ""],
        [GROUP_ADMIN, "device", "headset"],
      ]),
      ROLES,
      paths,
    );
    expect(result.user?.groupRoles).toEqual([]);
    expect(result.notes).toEqual([expect.stringMatching(/role "Group Admin" on device .* left as it is/)]);
  });

  it.each([
    [
      "a pending invitation",
      apiUser("new@acme.example", [[MEMBER, "organization", ""]], ["", ""]),
      /pending invitation/,
    ],
    [
      "no default role",
      apiUser("x@acme.example", [[GROUP_ADMIN, "group", "berlin"]]),
      /0 organization-wide roles/,
    ],
    [
      "an e-mail the resource refuses",
      apiUser("not an address", [[MEMBER, "organization", ""]]),
      /does not accept/,
    ],
    [
      "a role on a group the token cannot see",
      apiUser("x@acme.example", [
        [MEMBER, "organization", ""],
        [GROUP_ADMIN, "group", "hidden"],
      ]),
      /which the token cannot see/,
    ],
    [
      "more group roles than a User holds",
      apiUser("x@acme.example", [
        [MEMBER, "organization", ""],
        ...Array.from({ length: 101 }, () => [GROUP_ADMIN, "group", "berlin"] as [Role, "group", string]),
      ]),
      /101 group roles; a User resource holds at most 100/,
    ],
  ])("leaves out a user with %s", (_what, user, reason) => {
    const result = exportableUser(user, ROLES, paths);
    expect(result.user).toBeUndefined();
    expect(result.notes).toEqual([expect.stringMatching(reason)]);
  });

  it("leaves out a user whose role cannot be looked up by name because two roles share it", () => {
    const twoAdmins = [...ROLES, role("Admin", "organization", "custom admin")];
    const result = exportableUser(apiUser("x@acme.example", [[ADMIN, "organization", ""]]), twoAdmins, paths);
    expect(result.user).toBeUndefined();
    expect(result.notes).toEqual([expect.stringMatching(/several organization roles are named "Admin"/)]);
    // A same-named role of the other type is no ambiguity: lookups name the type.
    const otherType = [...ROLES, role("Admin", "group")];
    expect(
      exportableUser(apiUser("x@acme.example", [[ADMIN, "organization", ""]]), otherType, paths).user,
    ).toBeDefined();
  });
});
