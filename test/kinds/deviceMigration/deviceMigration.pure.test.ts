// Pure rules of DeviceMigration, without Pulumi or HTTP: the diff, check, and the 403 explained by the permissions.
import {
  deviceMigrationHandler,
  diffMigration,
  migrationForbiddenMessage,
} from "../../../provider/kinds/deviceMigration/handler";

const A = "11111111-1111-4111-8111-111111111111";
const B = "22222222-2222-4222-8222-222222222222";

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
