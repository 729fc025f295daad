/**
 * What a user may do in an organization. The default role (the access control on the organization protectable)
 * grants its permissions organization-wide; a group role grants its permissions on that group and every
 * descendant of it.
 */
import { forbidden } from "./errors";
import type { User } from "./model";
import type { Permission } from "./permissions";
import type { OrgState } from "./store";

export class Access {
  private readonly orgWide = new Set<Permission>();
  private readonly byGroup = new Map<string, Set<Permission>>();

  constructor(
    private readonly org: OrgState,
    user: User,
  ) {
    for (const control of user.accessControls) {
      const role = org.roles.get(control.roleId);
      if (!role) continue;
      if (control.protectable.type === "organization") {
        for (const p of role.permissions) this.orgWide.add(p);
      } else {
        let granted = this.byGroup.get(control.protectable.id);
        if (!granted) this.byGroup.set(control.protectable.id, (granted = new Set()));
        for (const p of role.permissions) granted.add(p);
      }
    }
  }

  hasOrgWide(permission: Permission): boolean {
    return this.orgWide.has(permission);
  }

  /** On a group (and so through its ancestors' grants), or organization-wide when groupId is null. */
  can(permission: Permission, groupId: string | null = null): boolean {
    if (this.orgWide.has(permission)) return true;
    if (groupId === null || this.byGroup.size === 0) return false;
    for (const group of this.org.selfAndAncestors(groupId)) {
      if (this.byGroup.get(group.id)?.has(permission)) return true;
    }
    return false;
  }

  /** Whether any grant at all carries the permission (lists then show what the grants reach). */
  hasAnywhere(permission: Permission): boolean {
    if (this.orgWide.has(permission)) return true;
    for (const granted of this.byGroup.values()) if (granted.has(permission)) return true;
    return false;
  }

  require(permission: Permission, groupId: string | null = null): void {
    if (!this.can(permission, groupId)) throw forbidden();
  }

  requireAnywhere(permission: Permission): void {
    if (!this.hasAnywhere(permission)) throw forbidden();
  }
}
