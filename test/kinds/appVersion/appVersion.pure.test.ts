// The AppVersion kind without Pulumi or HTTP: check hashes the .apk with SHA-256 (the API's checksum of builds;
// cached apart from File's SHA-512 of the same file), pins and refuses with the property and the fix, and the diff
// compares the hash, never the local path; every other declared change replaces (the API changes no build).
import { createHash } from "node:crypto";
import { diffKind, checkContentSource, hashReads } from "../../../provider/framework";
import { appVersionHandler } from "../../../provider/kinds/appVersion/handler";
import { appVersionProperties } from "../../../provider/kinds/appVersion/properties";
import { sha256, useSourceFolder } from "../../fixtures/content";

const APP_VERSION = { type: "AppVersion", properties: appVersionProperties, naturalKey: false };
const APP = "6f1c2a9e-3b4d-4e5f-8a7b-9c0d1e2f3a4b";

const sources = useSourceFolder("app-version-kind-");

const write = sources.write;

test("check records the .apk's SHA-256, hashed once per algorithm while the file is unchanged", async () => {
  const source = write("sim.apk", "a build");
  const before = hashReads();
  const { inputs, failures } = await appVersionHandler.check(
    {},
    { appId: APP, source, versionName: "2.5.0" },
  );
  expect(failures).toEqual([]);
  expect(inputs).toEqual({ appId: APP, source, versionName: "2.5.0", sha256: sha256("a build") });
  await appVersionHandler.check({}, { appId: APP, source, versionName: "2.5.0" });
  expect(hashReads()).toBe(before + 1);
  // The SHA-512 of the same path (as File hashes) is cached apart: read once more, never taken for the SHA-256.
  const sha512 = await checkContentSource(source, sources.dir, {
    algorithm: "SHA-512",
    refuse: () => undefined,
  });
  expect(sha512).toMatchObject({ checksum: createHash("sha512").update("a build").digest("hex") });
  expect(hashReads()).toBe(before + 2);
});

test("check refuses a pinned sha256 the source does not have, naming both and the fix", async () => {
  const source = write("pinned.apk", "the real bytes");
  const { failures } = await appVersionHandler.check(
    {},
    { appId: APP, source, versionName: "1.0.0", sha256: sha256("other bytes").toUpperCase() },
  );
  expect(failures).toEqual([
    {
      property: "sha256",
      reason: `sha256: ${source} has the SHA-256 ${sha256("the real bytes")}, not the declared ${sha256("other bytes")}. Declare the new hash, or leave sha256 out to take whatever the .apk holds.`,
    },
  ]);
});

test("check refuses a missing versionName and an appId that is no id", async () => {
  const source = write("plain.apk", "bytes");
  const { failures } = await appVersionHandler.check({}, { appId: "sim", source });
  expect(failures.map((f) => f.property).sort()).toEqual(["appId", "versionName"]);
  expect(failures.find((f) => f.property === "versionName")?.reason).toMatch(/versionName is required/);
});

test("the diff compares the hash, never the path; name and app replace, notes update", () => {
  const olds = {
    appId: APP,
    source: "a/sim.apk",
    versionName: "2.5.0",
    releaseNotes: "x",
    sha256: sha256("a"),
  };
  const diff = (news: Record<string, unknown>) => diffKind(APP_VERSION, olds, { ...olds, ...news });
  expect(diff({ source: "b/other.apk" })).toMatchObject({ changes: false });
  expect(diff({ sha256: sha256("a").toUpperCase() })).toMatchObject({ changes: false });
  expect(diff({ sha256: sha256("b") })).toMatchObject({ changes: true, replaces: ["sha256"] });
  expect(diff({ versionName: "2.5.1" })).toMatchObject({ changes: true, replaces: ["versionName"] });
  expect(diff({ releaseNotes: "y" })).toMatchObject({ changes: true, replaces: [] });
  expect(diff({ appId: "7f1c2a9e-3b4d-4e5f-8a7b-9c0d1e2f3a4b" })).toMatchObject({ replaces: ["appId"] });
});
