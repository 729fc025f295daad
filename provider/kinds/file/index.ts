/** What the package exports of the File kind: the resource and its lookup. */
export { File, type FileArgs } from "./resource";
export { getFile, getFileOutput, type FileResult, type GetFileArgs } from "./lookups";
