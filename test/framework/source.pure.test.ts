// Every content kind refuses an empty (0-byte) source at check, naming the property and the fix: the API's
// documents give no lower bound for an upload's size, so the provider asks nothing of an empty upload.
import { pluginHandler } from "../../provider/framework";
import { KINDS } from "../../provider/kinds";
import { useSourceFolder } from "../fixtures/content";

const sources = useSourceFolder("empty-source-");
const APP_ID = "7b0d6c8e-1a2b-4c3d-8e9f-0a1b2c3d4e5f";
const EMPTY =
  /source: .*is empty \(0 bytes\), and the API's documents do not say .*Give the path of a file with content/;

const declarations = {
  file: (source: string) => ({ source, path: "/sdcard/Docs" }),
  video: (source: string) => ({ source, videoType: "TwoDimensional", audioEncoding: "STEREO" }),
  image: (source: string) => ({ source }),
  custom3DEnvironment: (source: string) => ({ source }),
  appVersion: (source: string) => ({ source, appId: APP_ID, versionName: "1.0.0" }),
  appBundle: (source: string) => ({
    appId: APP_ID,
    versionId: APP_ID,
    files: [{ source, path: "/sdcard/Android/obb" }],
  }),
} as const;

const extensions: Record<keyof typeof declarations, string> = {
  file: "notes.txt",
  video: "tour.mp4",
  image: "icon.png",
  custom3DEnvironment: "scene.glb",
  appVersion: "app.apk",
  appBundle: "data.obb",
};

describe.each(Object.keys(declarations) as Array<keyof typeof declarations>)("%s check", (kind) => {
  const check = (source: string) => pluginHandler(KINDS[kind]).check({}, declarations[kind](source));

  it("refuses an empty source, naming the property and the fix", async () => {
    const { failures } = await check(sources.write(`empty/${extensions[kind]}`, ""));
    const property = kind === "appBundle" ? "files" : "source";
    expect(failures).toEqual([{ property, reason: expect.stringMatching(EMPTY) }]);
    if (kind === "appBundle") expect(failures?.[0].reason).toMatch(/^files\[0\]\.source: /);
  });

  it("takes a source of one byte", async () => {
    const { failures } = await check(sources.write(`one/${extensions[kind]}`, "x"));
    expect(failures ?? []).toEqual([]);
  });
});
