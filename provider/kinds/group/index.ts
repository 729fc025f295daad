/** What the package exports of the Group kind: the resource and its lookup. */
export { Group, type GroupArgs } from "./resource";
export {
  getGroup,
  getGroupOutput,
  type GetGroupArgs,
  type GetGroupByIdArgs,
  type GetGroupByNameArgs,
  type GroupResult,
} from "./lookups";
