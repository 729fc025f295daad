/**
 * The lookups a program needs beside Image and Custom3DEnvironment: `getImage` (by file name among the images of
 * one type, system images included) and `getCustom3DEnvironment` (by file name). Each fails with a LookupError
 * that lists what there is when nothing matches, and the ids when several do.
 */
import type { ImageType } from "../../client";
import { checker } from "../../client/arguments";
import { exactlyOne, lookup, lookupClient, toOutput, type LookupOptions } from "../../lookupSupport";

export const IMAGE_TYPES: readonly ImageType[] = [
  "unknown",
  "three-sixty-background",
  "android-wallpaper",
  "app-icon",
  "video-icon",
  "organization-icon",
  "unmanaged-app-icon",
  "webxr-link-icon",
  "headset-xp-skybox",
  "headset-xp-banner",
  "headset-xp-menu-icon",
];

/** An image of the organization or of the service. */
export interface ImageResult {
  /** For an experience's `menuIconImageId` or background image ids. */
  id: string;
  /** The file name it was uploaded as. */
  name: string;
  type: ImageType;
  isSystemOwned: boolean;
}

/** Arguments of {@link getImage}. */
export interface GetImageArgs {
  /** The file name the image was uploaded as, e.g. "acme-menu-icon.png" (case-sensitive). */
  name: string;
  /** What the image is for: a menu icon is `headset-xp-menu-icon`, a banner `headset-xp-banner`, and so on. */
  type: ImageType;
}

const IMAGE_USAGE = 'getImage({ name: "acme-menu-icon.png", type: "headset-xp-menu-icon" })';

/**
 * Finds an image by its file name among the images of one type (the API lists images by type).
 *
 * @function
 * @example
 * const icon = dm.getImageOutput({ name: "acme-menu-icon.png", type: "headset-xp-menu-icon" });
 */
export const getImage = lookup(async function getImage(
  args: GetImageArgs,
  options?: LookupOptions,
): Promise<ImageResult> {
  const check = checker("getImage", args, IMAGE_USAGE);
  check.only("name", "type");
  const name = check.name("name", "image's file name");
  const type =
    check.oneOf("type", IMAGE_TYPES) ?? check.fail('it needs "type": images are listed by type.', "type");
  const images = await lookupClient(options).images.all(type);
  const image = exactlyOne(
    `image named "${name}" of type ${type}`,
    images.filter((i) => i.originalFileName === name),
    (i) => `${i.id}${i.isSystemOwned ? " (system)" : ""}`,
    images.flatMap((i) => (i.originalFileName ? [i.originalFileName] : [])),
  );
  return { id: image.id, name, type, isSystemOwned: image.isSystemOwned };
});
/** {@link getImage} with Inputs, as an Output. */
export const getImageOutput = toOutput(getImage);

export interface Custom3DEnvironmentResult {
  /** For a background's `custom3DEnvironmentId`. */
  id: string;
  /** The uploaded file's name. */
  name: string;
}

/** Arguments of {@link getCustom3DEnvironment}. */
export interface GetCustom3DEnvironmentArgs {
  /** The uploaded file's name, e.g. "acme-showroom.glb" (case-sensitive). */
  name: string;
}

/**
 * Finds a custom 3D environment by its file name.
 *
 * @function
 * @example
 * const showroom = dm.getCustom3DEnvironmentOutput({ name: "acme-showroom.glb" });
 */
export const getCustom3DEnvironment = lookup(async function getCustom3DEnvironment(
  args: GetCustom3DEnvironmentArgs,
  options?: LookupOptions,
): Promise<Custom3DEnvironmentResult> {
  const check = checker(
    "getCustom3DEnvironment",
    args,
    'getCustom3DEnvironment({ name: "acme-showroom.glb" })',
  );
  check.only("name");
  const name = check.name("name", "environment's file name");
  const all = await lookupClient(options).custom3DEnvironments.all();
  const found = exactlyOne(
    `custom 3D environment named "${name}"`,
    all.filter((e) => e.objectName === name),
    (e) => e.id,
    all.map((e) => e.objectName),
  );
  return { id: found.id, name: found.objectName };
});
/** {@link getCustom3DEnvironment} with Inputs, as an Output. */
export const getCustom3DEnvironmentOutput = toOutput(getCustom3DEnvironment);
