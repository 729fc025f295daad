/**
 * The OpenAPI's rules between a video's rendering fields (InitiateVideoUpload and UpdateVideo say the same),
 * checked at preview so a wrong combination fails before any upload, naming the property and the fix:
 * `videoMapping` and `videoDisplay` are required for ThreeSixty and OneEighty videos and prohibited for
 * TwoDimensional ones; `videoPacking` is required when `videoDisplay` is Stereoscopic and prohibited otherwise.
 * A value still unknown at preview (another resource's output) is judged at the up.
 */
import type * as pulumi from "@pulumi/pulumi";
import { containsUnknown } from "../../framework";

interface Rendering {
  videoType?: unknown;
  videoMapping?: unknown;
  videoDisplay?: unknown;
  videoPacking?: unknown;
}

const EXAMPLES = {
  videoMapping: '"EQUIRECTANGULAR" or "CUBEMAP"',
  videoDisplay: '"Monoscopic" or "Stereoscopic"',
  videoPacking: '"TOP_BOTTOM" or "LEFT_RIGHT"',
} as const;

/** One failure per field the declared combination gets wrong. */
export function renderingFailures(declared: Rendering): pulumi.dynamic.CheckFailure[] {
  const failures: pulumi.dynamic.CheckFailure[] = [];
  const known = (value: unknown) => !containsUnknown(value);
  const present = (value: unknown) => value !== undefined && value !== null;
  const { videoType } = declared;
  if (typeof videoType === "string" && known(videoType)) {
    const flat = videoType === "TwoDimensional";
    for (const field of ["videoMapping", "videoDisplay"] as const) {
      const value = declared[field];
      if (!known(value)) continue;
      if (flat && present(value))
        failures.push({
          property: field,
          reason:
            `${field}: a TwoDimensional video takes no ${field} (it is for ThreeSixty and OneEighty videos). ` +
            `Remove ${field}, or set videoType to "ThreeSixty" or "OneEighty" if the video is immersive.`,
        });
      if (!flat && !present(value))
        failures.push({
          property: field,
          reason: `${field} is required for a ${videoType} video: give ${EXAMPLES[field]}.`,
        });
    }
  }
  const { videoDisplay, videoPacking } = declared;
  if (known(videoDisplay) && known(videoPacking)) {
    const stereo = videoDisplay === "Stereoscopic";
    if (stereo && !present(videoPacking))
      failures.push({
        property: "videoPacking",
        reason: `videoPacking is required for a Stereoscopic video: give ${EXAMPLES.videoPacking}.`,
      });
    if (!stereo && present(videoPacking))
      failures.push({
        property: "videoPacking",
        reason:
          "videoPacking: only a Stereoscopic video takes videoPacking (how its two eyes are packed). Remove " +
          'videoPacking, or set videoDisplay to "Stereoscopic" if the video is.',
      });
  }
  return failures;
}
