/** What the package exports of the User kind: the resource and the type of its group roles. */
export { User, type UserArgs, type GroupRoleArgs } from "./resource";
export type { GroupRole } from "./roles";
