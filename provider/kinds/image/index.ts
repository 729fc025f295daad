/** What the package exports of the Image and Custom3DEnvironment kinds: the resources and their lookups. */
export {
  Custom3DEnvironment,
  type Custom3DEnvironmentArgs,
  Image,
  type ImageArgs,
  type UploadedContentArgs,
} from "./resource";
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
