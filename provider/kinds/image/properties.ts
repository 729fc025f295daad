/**
 * The Image and Custom3DEnvironment kinds' properties, declared once each (framework/properties.ts). Both are
 * content uploaded from `source` whose identity is its SHA-512 (`sha512`, computed by check): the API answers no
 * checksum for either, so the hash is the provider's own record of what it uploaded, never read back. The diff
 * compares the hash and the name the file is sent as, never the local path: the same bytes at another path are
 * no change, changed bytes at the same path replace the object.
 */
import { z } from "zod";
import type { Custom3DEnvironment, Image } from "../../client";
import { carried, type PropertySpecs, type StateOf, byProperties, defineIdentity } from "../../framework";

const source = {
  schema: z
    .string({
      error: "source is required: the path of the local file to upload (relative to the program's folder)",
    })
    .trim()
    .min(1, { error: "source must not be empty: give the path of the local file to upload" }),
  // Read only by create, never compared: where the bytes are on this machine says nothing about the content.
  change: "createOnly",
} as const;

const filenameSchema = z
  .string({ error: "filename must be a string: the name the file is uploaded as" })
  .trim()
  .min(1, { error: "filename must not be empty (leave it out to use the source's name)" })
  .refine((v) => !/[/\\]/.test(v), { error: "filename must be a name without / or \\" })
  .optional();

const sha512 = {
  // Computed by check from source; declared, it pins the content (a source with another hash fails check).
  schema: z
    .string({ error: "sha512 must be a string: the SHA-512 (128 hex digits) the source must have" })
    .trim()
    .regex(/^[0-9a-fA-F]{128}$/, { error: "sha512 must be 128 hex digits (a SHA-512), or left out" })
    .transform((v) => v.toLowerCase())
    .optional(),
  // No fromLive: the API answers no checksum for these kinds, so state keeps what check computed.
  change: "replace",
} as const;

export const imageProperties = {
  source,
  filename: {
    schema: filenameSchema,
    // The API renames no image: another name is another upload.
    change: "replace",
    fromLive: (live: Image) => live.originalFileName,
  },
  sha512,
  ...carried,
} satisfies PropertySpecs<Image>;

export const custom3DEnvironmentProperties = {
  source,
  filename: {
    schema: filenameSchema,
    change: "replace",
    fromLive: (live: Custom3DEnvironment) => live.objectName,
  },
  sha512,
  ...carried,
} satisfies PropertySpecs<Custom3DEnvironment>;

export type ImageProperties = typeof imageProperties;
export type ImageState = StateOf<ImageProperties>;
export type Custom3DEnvironmentProperties = typeof custom3DEnvironmentProperties;
export type Custom3DEnvironmentState = StateOf<Custom3DEnvironmentProperties>;

/** What each kind's source may be (the emulator's reading: the OpenAPI names .glb, and shows only JPEG images). */
export const IMAGE_EXTENSIONS = [".png", ".jpg", ".jpeg"] as const;
export const ENVIRONMENT_EXTENSIONS = [".glb"] as const;

/**
 * Who the Image and Custom3DEnvironment kinds are: key, type token, properties, natural key and claim, declared
 * once for the definitions and the shared handler.
 */

// The name and content an image or 3D environment is uploaded with name it only for the repair after a killed
// run (objects of one name and content may exist twice; the API cannot delete either, so none is refused).

export const imageIdentity = defineIdentity({
  kind: "image",
  type: "Image",
  // Images of one name may coexist; the API cannot delete one, so a replacement uploads first.
  naturalKey: false,
  properties: imageProperties,
  claim: {
    property: "filename",
    keys: byProperties(["filename", "sha512"]),
    describe: (p) => `the image "${String(p.filename)}"`,
    refuses: false,
  },
});

export const custom3DEnvironmentIdentity = defineIdentity({
  kind: "custom3DEnvironment",
  type: "Custom3DEnvironment",
  naturalKey: false,
  properties: custom3DEnvironmentProperties,
  claim: {
    property: "filename",
    keys: byProperties(["filename", "sha512"]),
    describe: (p) => `the custom 3D environment "${String(p.filename)}"`,
    refuses: false,
  },
});
