/**
 * The lookups the plugin serves as functions (`devicemgmt:index:getGroup` …): the same functions the TypeScript
 * package exports, called with the provider's connection. Their arguments and results are TypeScript interfaces
 * (lookups.ts, the kinds' lookups.ts), not declared properties, so their schema is written here, next to the
 * call it describes; test/plugin/schema.test.ts calls each through the plugin and compares the answer's keys
 * with the declared outputs.
 */
import { getCurrentOrganization, getReleaseChannel, getRole, getTokenInfo } from "../lookups";
import { getGroup } from "../kinds/group/lookups";
import { getTag } from "../kinds/tag/lookups";
import type { LookupOptions } from "../lookupSupport";
import type { FunctionSpec, ObjectTypeSpec, PropertySpecJson } from "./schemaTypes";

export interface PluginFunction {
  spec: FunctionSpec;
  call(args: Record<string, unknown>, options: LookupOptions): Promise<object>;
}

const text = (description: string): PropertySpecJson => ({ type: "string", description });

function object(properties: Record<string, PropertySpecJson>, required: string[] = []): ObjectTypeSpec {
  return { type: "object", properties, ...(required.length ? { required } : {}) };
}

const id = text("The object's id (a UUID).");

export const FUNCTIONS: Record<string, PluginFunction> = {
  "devicemgmt:index:getGroup": {
    spec: {
      description:
        "Finds a group by id, or by name among the children of one parent (the root when parentId is absent).",
      inputs: object({
        id: text("The group's UUID (instead of name)."),
        name: text("The group's exact name (1 to 255 characters, case-sensitive)."),
        parentId: text("The UUID of the folder the group is in; absent for a root-level group."),
      }),
      outputs: object(
        {
          id,
          name: text("The group's name."),
          parentId: text("The parent folder's id; absent for a root-level group."),
          configured: {
            type: "boolean",
            description: "True for a leaf group that can hold devices, release channels, files and videos.",
          },
          deviceCount: { type: "integer", description: "How many devices the group holds." },
        },
        ["id", "name", "configured", "deviceCount"],
      ),
    },
    call: (args, options) => getGroup(args as never, options),
  },
  "devicemgmt:index:getRole": {
    spec: {
      description:
        "Finds a role by name (and type); an error lists the roles there are when none or several match.",
      inputs: object(
        {
          name: text('The role\'s exact name, e.g. "Admin" or "Group Viewer" (case-sensitive).'),
          type: text('Only roles of this type ("organization" or "group").'),
        },
        ["name"],
      ),
      outputs: object(
        {
          id,
          name: text("The role's name."),
          type: text('"organization" or "group".'),
          isOwnedBySystem: {
            type: "boolean",
            description: "True for the built-in roles the service provides.",
          },
        },
        ["id", "name", "type", "isOwnedBySystem"],
      ),
    },
    call: (args, options) => getRole(args as never, options),
  },
  "devicemgmt:index:getReleaseChannel": {
    spec: {
      description: "Finds a release channel by app name and channel name.",
      inputs: object(
        {
          appName: text('The app\'s exact name, e.g. "Warehouse Picker".'),
          channelName: text('The channel\'s exact name within that app, e.g. "Production".'),
        },
        ["appName", "channelName"],
      ),
      outputs: object(
        {
          id,
          name: text("The channel's name."),
          appId: text("The app's id."),
          appName: text("The app's name."),
        },
        ["id", "name", "appId", "appName"],
      ),
    },
    call: (args, options) => getReleaseChannel(args as never, options),
  },
  "devicemgmt:index:getTag": {
    spec: {
      description:
        "Finds a tag of the organization's catalogue by name (matched without case, as the API does).",
      inputs: object({ name: text("The tag's name.") }, ["name"]),
      outputs: object({ id, name: text("The tag's name as the catalogue spells it.") }, ["id", "name"]),
    },
    call: (args, options) => getTag(args as never, options),
  },
  "devicemgmt:index:getCurrentOrganization": {
    spec: {
      description: "The organization of the token in use.",
      outputs: object(
        { id, name: text("The organization's name."), slug: text("The organization's slug.") },
        ["id", "name", "slug"],
      ),
    },
    call: (_args, options) => getCurrentOrganization(options),
  },
  "devicemgmt:index:getTokenInfo": {
    spec: {
      description: "The token's name, API version and organization (never the token itself).",
      outputs: object(
        {
          tokenName: text("The token's name."),
          apiVersion: text('"v2" or "v3".'),
          organizationId: text("The organization's id."),
          basePath: text("The API's base path."),
        },
        ["tokenName", "apiVersion", "organizationId", "basePath"],
      ),
    },
    call: (_args, options) => getTokenInfo(options),
  },
};
