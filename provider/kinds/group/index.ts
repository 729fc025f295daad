/** What the package exports of the Group kind: the resource and its lookups. */
export { Group, type GroupArgs } from "./resource";
export {
  getGroup,
  getGroupOutput,
  getGroupTree,
  getGroupTreeOutput,
  type GetGroupArgs,
  type GetGroupByIdArgs,
  type GetGroupByNameArgs,
  type GroupResult,
  type GetGroupTreeArgs,
  type GroupTreeNode,
  type GroupTreeResult,
} from "./lookups";
