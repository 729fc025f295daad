import type * as pulumi from "@pulumi/pulumi";
import { DeviceMgmtResource, type AdoptionArgs, registration } from "../../framework";
import { custom3DEnvironmentKind, imageKind } from "./definitions";

// What the package exports of the kind besides its class, from the kind's other files.
export {
  getCustom3DEnvironment,
  getCustom3DEnvironmentOutput,
  getImage,
  getImageOutput,
  type Custom3DEnvironmentResult,
  type GetCustom3DEnvironmentArgs,
  type GetImageArgs,
  type ImageResult,
} from "./lookups";

/** The inputs of an {@link Image} and of a {@link Custom3DEnvironment}. */
export interface UploadedContentArgs extends AdoptionArgs {
  /**
   * The local file to upload: a path relative to the program's folder, or absolute. Never sent to the API and
   * never compared: the content's SHA-512 is (`sha512`), so the same bytes at another path are no change, and
   * changed bytes at the same path upload a new object. Refused at preview: a missing, unreadable or empty file,
   * a folder, a symbolic link leading outside the program's folder, a file type the kind does not take.
   */
  source: pulumi.Input<string>;
  /** The name the file is uploaded as; absent: the source's own name. A change uploads a new object. */
  filename?: pulumi.Input<string>;
  /**
   * Optional pin: the SHA-512 (hex) the source must have; the check of a preview and of an `up` fails when it
   * has another (`up` hashes the source again: only a pin holds the bytes a preview was reviewed with). Absent,
   * the source's hash is taken (and is the output `sha512`).
   */
  sha512?: pulumi.Input<string>;
}

/** The inputs of an {@link Image}: `source` is a .png, .jpg or .jpeg file. */
export type ImageArgs = UploadedContentArgs;

/**
 * An image of the organization (a menu icon, a skybox, a banner, a 360° background), uploaded from the
 * repository, for the image ids of a `HeadsetExperience` or `DeviceExperience`. Its identity is its content's
 * SHA-512, taken at preview from `source`: the API answers no checksum for images, so the provider keeps its own
 * and cannot see an image replaced in the portal under the same id. A changed hash uploads a new image (new id;
 * experiences declared with `image.id` follow it).
 *
 * The API cannot delete images: destroy (and a replacement) leaves the image in the organization and removes it
 * from the stack, with a warning. Which type an uploaded image gets is not documented (the upload takes none);
 * the output `type` says what the API answered. `adoptId` takes over an existing image of the declared filename.
 *
 * @example
 * const sky = new dm.Image("sky", { source: "content/sky.jpg" });
 */
export class Image extends DeviceMgmtResource {
  /** The local file uploaded, as declared. */
  declare readonly source: pulumi.Output<string>;
  /** The name the image was uploaded as (the API's `originalFileName`). */
  declare readonly filename: pulumi.Output<string>;
  /** The SHA-512 (hex, lower case) of the content uploaded (the provider's record: the API answers none). */
  declare readonly sha512: pulumi.Output<string>;
  /** The image's type as the API answers it (e.g. "unknown" for an upload). */
  declare readonly type: pulumi.Output<string>;
  /** "available" once the service has processed the image. */
  declare readonly status: pulumi.Output<string | null>;
  /** The randomized name devices store it under. */
  declare readonly objectName: pulumi.Output<string | null>;
  declare readonly mimeType: pulumi.Output<string | null>;
  declare readonly sizeBytes: pulumi.Output<number | null>;
  /** When the image was created (ISO 8601). */
  declare readonly createdAt: pulumi.Output<string>;
  declare readonly updatedAt: pulumi.Output<string>;

  constructor(name: string, args: ImageArgs, opts?: pulumi.CustomResourceOptions) {
    super(...registration(imageKind, name, args, opts));
  }
}

/** The inputs of a {@link Custom3DEnvironment}: `source` is a .glb file. */
export type Custom3DEnvironmentArgs = UploadedContentArgs;

/**
 * A custom 3D environment (a `.glb` scene) uploaded from the repository, for an experience's
 * `custom-3d-environment` background. As {@link Image}: its identity is the SHA-512 the provider takes at preview
 * (the API answers none), a changed hash uploads a new environment, and destroy leaves it in the organization
 * (the API cannot delete environments) and says so.
 *
 * @example
 * const hall = new dm.Custom3DEnvironment("hall", { source: "content/hall.glb" });
 */
export class Custom3DEnvironment extends DeviceMgmtResource {
  declare readonly source: pulumi.Output<string>;
  /** The name the environment was uploaded as (the API's `objectName`). */
  declare readonly filename: pulumi.Output<string>;
  /** The SHA-512 (hex, lower case) of the content uploaded (the provider's record: the API answers none). */
  declare readonly sha512: pulumi.Output<string>;
  /** "available" once the service has processed the environment. */
  declare readonly status: pulumi.Output<string | null>;
  declare readonly sizeBytes: pulumi.Output<number | null>;
  declare readonly createdAt: pulumi.Output<string>;
  declare readonly updatedAt: pulumi.Output<string>;

  constructor(name: string, args: Custom3DEnvironmentArgs, opts?: pulumi.CustomResourceOptions) {
    super(...registration(custom3DEnvironmentKind, name, args, opts));
  }
}
