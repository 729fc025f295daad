/**
 * Who the Image and Custom3DEnvironment kinds are: key, type token, properties, natural key and claim, declared
 * once for the definitions and the shared handler.
 */
import { byProperties, defineIdentity } from "../../framework";
import { custom3DEnvironmentProperties, imageProperties } from "./properties";

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
