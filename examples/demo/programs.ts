/**
 * The programs the demo runs: examples/org itself (its index.ts, evaluated afresh for each run as the CLI's
 * Node.js language host would load it), and an edit of it such as a pull request would bring. The edit is made
 * here, around `declareOrganization`, so examples/org itself stays exactly what users copy.
 */
import * as pulumi from "@pulumi/pulumi";
import * as dm from "pulumi-devicemgmt";
import { declareOrganization, type OrganizationSettings } from "../org/organization";
import { DEFAULT_SITE_DEVICES } from "../org/sites";

/**
 * examples/org/index.ts as a program: loaded afresh on every run (its resources are declared when the module
 * is evaluated), its exports the stack outputs.
 */
export async function exampleProgram(): Promise<Record<string, unknown>> {
  const index = require.resolve("../org/index");
  delete require.cache[index];
  return { ...(require(index) as Record<string, unknown>) };
}

/** The settings examples/org/index.ts derives from a stack config that only sets `loanerDeviceId`. */
export function exampleSettings(loanerDeviceId: string): OrganizationSettings {
  return {
    loanerDeviceId,
    stagingSlug: "acme-staging",
    demoDeviceName: "Headset 01",
    emailDomain: "acme.example",
    siteDevices: DEFAULT_SITE_DEVICES,
  };
}

/** The London Warehouse kiosk's admin PIN the demo sets as the stack's `kioskPin` config secret. */
export const DEMO_KIOSK_PIN = "2468";

/** As examples/org/index.ts: the kiosk PIN from the stack's config secret (never in the program). */
const kioskPin = () => new pulumi.Config().requireSecret("kioskPin");

export const EDITED_COMPANY_NAME = "Acme Academy";
export const NEW_USER = { key: "berlin-trainer", firstName: "Bea", lastName: "Berger", role: "Group Viewer" };

/** What the edit does, in a reviewer's words. */
export const EDIT_DESCRIPTION =
  `rename the company group to "${EDITED_COMPANY_NAME}" (the companyName setting) and add ` +
  `${NEW_USER.firstName} ${NEW_USER.lastName}, ${NEW_USER.role} of Berlin Lab`;

/**
 * The edited program: one setting overridden (an in-place update) and one person added (a create), the two
 * kinds of change a reviewer most often sees.
 */
export function editedProgram(settings: OrganizationSettings) {
  return async () => {
    const org = declareOrganization({ ...settings, kioskPin: kioskPin(), companyName: EDITED_COMPANY_NAME });
    const readOnly = dm.getRoleOutput({ name: "Read Only", type: "organization" });
    const groupViewer = dm.getRoleOutput({ name: NEW_USER.role, type: "group" });
    const trainer = new dm.User(NEW_USER.key, {
      firstName: NEW_USER.firstName,
      lastName: NEW_USER.lastName,
      email: `${NEW_USER.firstName}.${NEW_USER.lastName}@${settings.emailDomain}`.toLowerCase(),
      defaultRoleId: readOnly.id,
      groupRoles: [{ roleId: groupViewer.id, groupId: org.groups.berlin }],
    });
    return {
      groups: org.groups,
      users: { ...org.users, berlinTrainer: trainer.id },
      migratedDevice: org.migratedDevice,
      uploaded: org.uploaded,
    };
  };
}
