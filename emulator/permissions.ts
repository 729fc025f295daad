/** The permission catalogue and the system roles every organization is seeded with. */

export const PERMISSIONS = [
  "USER__VIEW",
  "USER__MANAGE",
  "ROLE__VIEW",
  "GROUP__VIEW",
  "GROUP__MANAGE",
  "GROUP__ADD_REMOVE_DEVICES",
  "DEVICE__VIEW",
  "DEVICE__MANAGE",
  "DEVICE__MIGRATE",
  "ENROLLMENT__ENROLL_DEVICE",
  "APP__VIEW",
  "RELEASE_CHANNEL__MANAGE",
  "CONTENT__VIEW",
  "CONTENT__MANAGE",
  "AUDIT_LOG__VIEW",
] as const;

export type Permission = (typeof PERMISSIONS)[number];

export type RoleType = "organization" | "group";

export interface SystemRoleDefinition {
  name: string;
  description: string;
  type: RoleType;
  permissions: readonly Permission[];
}

const VIEW_PERMISSIONS = PERMISSIONS.filter((p) => p.endsWith("__VIEW"));

/** Seeded in this order in every organization, so the secondary org mirrors the primary by name. */
export const SYSTEM_ROLES: readonly SystemRoleDefinition[] = [
  {
    name: "Admin",
    description: "Full access to the organization.",
    type: "organization",
    permissions: PERMISSIONS,
  },
  {
    name: "Device Manager",
    description: "Everything an admin can do except migrating devices to other organizations.",
    type: "organization",
    permissions: PERMISSIONS.filter((p) => p !== "DEVICE__MIGRATE"),
  },
  {
    name: "Read Only",
    description: "Can view everything in the organization and change nothing.",
    type: "organization",
    permissions: VIEW_PERMISSIONS,
  },
  {
    name: "Device Enroller",
    description:
      "Enrolls devices (including devices migrated in) and views groups and devices; cannot move devices between groups.",
    type: "organization",
    permissions: ["ENROLLMENT__ENROLL_DEVICE", "DEVICE__VIEW", "GROUP__VIEW"],
  },
  {
    name: "Member",
    description: "Belongs to the organization; what a member may see and do comes from group roles only.",
    type: "organization",
    permissions: [],
  },
  {
    name: "Group Admin",
    description: "Manages a group and its descendants: sub-groups, devices, release channels and content.",
    type: "group",
    permissions: [
      "GROUP__VIEW",
      "GROUP__MANAGE",
      "GROUP__ADD_REMOVE_DEVICES",
      "DEVICE__VIEW",
      "DEVICE__MANAGE",
      "RELEASE_CHANNEL__MANAGE",
      "CONTENT__MANAGE",
    ],
  },
  {
    name: "Group Viewer",
    description: "Can view a group, its descendants and their devices.",
    type: "group",
    permissions: ["GROUP__VIEW", "DEVICE__VIEW"],
  },
];
