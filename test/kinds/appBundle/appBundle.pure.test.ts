// The AppBundle kind without Pulumi or HTTP: check hashes every data file (an .obb is one here, an .apk is not),
// names the file at fault, refuses two files at one device path; the diff compares files by folder, name and
// SHA-512 (never the local path), replaces on content or build, and updates the label in place (a label left out
// is not managed).
import * as path from "node:path";
import { UNKNOWN, diffKind } from "../../../provider/framework";
import { appBundleHandler } from "../../../provider/kinds/appBundle/handler";
import { appBundleProperties } from "../../../provider/kinds/appBundle/properties";
import { sha512, useSourceFolder } from "../../fixtures/content";

const BUNDLE = { type: "AppBundle", properties: appBundleProperties, naturalKey: false };
const APP = "6f1c2c9e-1111-4a2b-8c3d-000000000001";
const BUILD = "6f1c2c9e-1111-4a2b-8c3d-000000000002";
const OTHER_BUILD = "6f1c2c9e-1111-4a2b-8c3d-000000000003";

const sources = useSourceFolder("bundle-kind-");

const write = sources.write;

const check = (files: unknown[], extra: Record<string, unknown> = {}) =>
  appBundleHandler.check({}, { appId: APP, versionId: BUILD, files, ...extra });

describe("AppBundle check", () => {
  it("hashes each file (an .obb is a data file here), fills in its name, and trims a folder's trailing slash", async () => {
    const obb = write("main.240.com.acme.sim.obb", "expansion");
    const config = write("config.json", "{}");
    const { inputs, failures } = await check([
      { source: obb, path: "/sdcard/Android/obb/com.acme.sim/" },
      { source: config, path: "/sdcard/sim", filename: "settings.json" },
    ]);
    expect(failures).toEqual([]);
    expect(inputs.files).toEqual([
      {
        source: obb,
        path: "/sdcard/Android/obb/com.acme.sim",
        filename: "main.240.com.acme.sim.obb",
        sha512: sha512("expansion"),
      },
      { source: config, path: "/sdcard/sim", filename: "settings.json", sha512: sha512("{}") },
    ]);
    expect((await check([])).inputs.files).toEqual([]);
    expect((await appBundleHandler.check({}, { appId: APP, versionId: BUILD })).inputs.files).toEqual([]);
  });

  it("refuses, naming the file and the fix: a build as a data file, a missing source, a folder, two files at one path", async () => {
    const apk = write("sim.apk", "build");
    const data = write("data.bin", "data");
    const { failures } = await check([
      { source: apk, path: "/sdcard" },
      { source: path.join(sources.dir, "nowhere.bin"), path: "/sdcard" },
      { source: sources.dir, path: "/sdcard" },
      { source: data, path: "/sdcard/a" },
      { source: data, path: "/sdcard/a/" },
    ]);
    expect(failures).toEqual([
      {
        property: "files",
        reason: expect.stringMatching(
          /^files\[0\]\.source: .*sim\.apk: an app build \(\.apk\) is not a data file: .*versionId/,
        ),
      },
      {
        property: "files",
        reason: expect.stringMatching(/^files\[1\]\.source: .*nowhere\.bin does not exist/),
      },
      { property: "files", reason: expect.stringMatching(/^files\[2\]\.source: .* is a folder/) },
      {
        property: "files",
        reason: expect.stringMatching(
          /^files\[4\]: \/sdcard\/a\/data\.bin is also files\[3\]'s place on devices/,
        ),
      },
    ]);
  });

  it("refuses bad shapes with the property: a relative device folder, a label over 60 characters, a non-uuid build", async () => {
    const data = write("ok.bin", "ok");
    const relative = await check([{ source: data, path: "sdcard" }]);
    expect(relative.failures).toEqual([
      expect.objectContaining({
        property: "files",
        reason: expect.stringMatching(/must be an absolute folder/),
      }),
    ]);
    const label = await check([], { label: "x".repeat(61) });
    expect(label.failures).toEqual([
      expect.objectContaining({ property: "label", reason: expect.stringMatching(/at most 60 characters/) }),
    ]);
    const build = await appBundleHandler.check({}, { appId: APP, versionId: "2.4.0" });
    expect(build.failures).toEqual([expect.objectContaining({ property: "versionId" })]);
  });

  it("leaves a source not known yet (preview) to the up", async () => {
    const { inputs, failures } = await check([{ source: UNKNOWN, path: "/sdcard" }]);
    expect(failures).toEqual([]);
    expect(inputs.files).toEqual([{ source: UNKNOWN, path: "/sdcard" }]);
    // Two folders not known yet are not taken for one place on devices.
    const data = write("twice.bin", "twice");
    const later = await check([
      { source: data, path: UNKNOWN },
      { source: data, path: UNKNOWN },
    ]);
    expect(later.failures).toEqual([]);
  });
});

describe("AppBundle diff", () => {
  const entry = (source: string, bytes: string, at = "/sdcard/sim") => ({
    source,
    path: at,
    filename: "data.bin",
    sha512: sha512(bytes),
  });
  const olds = {
    appId: APP,
    versionId: BUILD,
    files: [entry("/repo/a/data.bin", "v1")],
    label: "Field test",
  };

  it("no change: the same bytes at another local path, files in another order, a label left out", () => {
    const two = [entry("/x/data.bin", "v1"), { ...entry("/x/other.bin", "v2"), filename: "other.bin" }];
    const withTwo = { ...olds, files: two };
    expect(diffKind(BUNDLE, olds, { ...olds, files: [entry("/elsewhere/data.bin", "v1")] }).changes).toBe(
      false,
    );
    expect(diffKind(BUNDLE, withTwo, { ...withTwo, files: [...two].reverse() }).changes).toBe(false);
    expect(diffKind(BUNDLE, olds, { ...olds, label: undefined }).changes).toBe(false);
    // A refresh records what the API shows: the entries without their local source.
    const refreshed = {
      ...olds,
      files: [{ path: "/sdcard/sim", filename: "data.bin", sha512: sha512("v1") }],
    };
    expect(diffKind(BUNDLE, refreshed, olds).changes).toBe(false);
  });

  it("replaces on changed bytes at the same path, another folder, another build; updates the label in place", async () => {
    expect(diffKind(BUNDLE, olds, { ...olds, files: [entry("/repo/a/data.bin", "v2")] })).toMatchObject({
      changes: true,
      replaces: ["files"],
      deleteBeforeReplace: false,
    });
    expect(
      diffKind(BUNDLE, olds, { ...olds, files: [entry("/repo/a/data.bin", "v1", "/sdcard/new")] }).replaces,
    ).toEqual(["files"]);
    expect(diffKind(BUNDLE, olds, { ...olds, versionId: OTHER_BUILD }).replaces).toEqual(["versionId"]);
    expect(diffKind(BUNDLE, olds, { ...olds, label: "Production" })).toMatchObject({
      changes: true,
      replaces: [],
    });
    // null (remove the label) as check leaves it: "" (the diff reads a null as absent, i.e. not managed).
    const removed = (await check([], { label: null })).inputs.label;
    expect(removed).toBe("");
    expect(diffKind(BUNDLE, olds, { ...olds, label: removed }).changes).toBe(true);
    expect(diffKind(BUNDLE, { ...olds, label: null }, { ...olds, label: removed }).changes).toBe(false);
  });
});
