/** The Image and Custom3DEnvironment kinds: two lines of the kind table (kinds/index.ts) point here. */
import type { Custom3DEnvironment, Image } from "../../client";
import { defineKind } from "../../framework";
import { custom3DEnvironmentDrift, imageDrift } from "./drift";
import { custom3DEnvironmentSection, imageSection } from "./export";
import { uploadedContentHandler } from "./handler";
import {
  custom3DEnvironmentIdentity,
  imageIdentity,
  custom3DEnvironmentProperties,
  ENVIRONMENT_EXTENSIONS,
  IMAGE_EXTENSIONS,
  imageProperties,
} from "./properties";
import { IMAGE_TYPES } from "./lookups";

export const imageKind = defineKind({
  ...imageIdentity,
  docs: {
    declares: "an image uploaded for an experience (menu icon, banner, skybox, 360° background)",
    guide: "content",
    inputs: {
      inputs:
        "`source` (a local .png, .jpg or .jpeg), `filename` (optional; default the source's name), `sha512` (optional pin)",
      inPlace: "—",
      replaces: "content (`sha512`), `filename`",
      outputsAdded:
        "`sha512`, `type`, `status`, `objectName`, `mimeType`, `sizeBytes`, `createdAt`, `updatedAt`",
    },
    adoption: {
      adoptId: "the object's id",
      others: "a create uploads (objects of one name may coexist); `adoptId` needs the declared filename",
    },
  },
  outputs: ["type", "status", "objectName", "mimeType", "sizeBytes", "createdAt", "updatedAt"],
  handler: uploadedContentHandler<Image, typeof imageProperties>({
    identity: imageIdentity,
    noun: "an image",
    extensions: IMAGE_EXTENSIONS,
    get: (client, id) => client.images.get(id),
    // Which type an upload gets is not documented: every type is looked through.
    named: async (client, filename) =>
      (await Promise.all(IMAGE_TYPES.map((type) => client.images.all(type))))
        .flat()
        .filter((image) => !image.isSystemOwned && image.originalFileName === filename),
    upload: (client, options) => client.uploadImage(options),
    nameOf: (image) => image.originalFileName,
    outputs: (image) => ({
      type: image.type,
      status: image.status ?? null,
      objectName: image.objectName,
      mimeType: image.mimeType ?? null,
      sizeBytes: image.sizeBytes ?? null,
      createdAt: image.createdAt,
      updatedAt: image.updatedAt,
    }),
  }),
  logsOnResource: true,
  drift: imageDrift,
  export: imageSection,
});

export const custom3DEnvironmentKind = defineKind({
  ...custom3DEnvironmentIdentity,
  docs: {
    declares: "a 3D scene (`.glb`) uploaded for an experience's background",
    guide: "content",
    inputs: {
      inputs:
        "`source` (a local .glb), `filename` (optional; default the source's name), `sha512` (optional pin)",
      inPlace: "—",
      replaces: "content (`sha512`), `filename`",
      outputsAdded: "`sha512`, `status`, `sizeBytes`, `createdAt`, `updatedAt`",
    },
    adoption: {
      adoptId: "the object's id",
      others: "a create uploads (objects of one name may coexist); `adoptId` needs the declared filename",
    },
  },
  outputs: ["status", "sizeBytes", "createdAt", "updatedAt"],
  handler: uploadedContentHandler<Custom3DEnvironment, typeof custom3DEnvironmentProperties>({
    identity: custom3DEnvironmentIdentity,
    noun: "a custom 3D environment",
    extensions: ENVIRONMENT_EXTENSIONS,
    get: (client, id) => client.custom3DEnvironments.get(id),
    named: async (client, filename) =>
      (await client.custom3DEnvironments.all()).filter((e) => e.objectName === filename),
    upload: (client, options) => client.uploadCustom3DEnvironment(options),
    nameOf: (environment) => environment.objectName,
    outputs: (environment) => ({
      status: environment.status ?? null,
      sizeBytes: environment.sizeBytes ?? null,
      createdAt: environment.createdAt,
      updatedAt: environment.updatedAt,
    }),
  }),
  logsOnResource: true,
  drift: custom3DEnvironmentDrift,
  export: custom3DEnvironmentSection,
});
