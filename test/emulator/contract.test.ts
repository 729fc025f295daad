/**
 * Contract test: every endpoint the emulator implements, in success and error, answers with a status the v3
 * OpenAPI document declares for that operation and a body its schema accepts (extra properties allowed).
 * Needs ../shared/reference/v3-openapi.yaml; without it the suite logs why and checks nothing.
 */
import { existsSync, readFileSync } from "node:fs";
import * as path from "node:path";
import Ajv, { type ValidateFunction } from "ajv";
import addFormats from "ajv-formats";
import { request } from "undici";
import { parse } from "yaml";
import { API_ROUTES, type RunningEmulator } from "../../emulator";
import type { RouteDefinition } from "../../emulator/context";
import { call, start, type CallOptions, type Json } from "./helpers";
import { probeExperienceOperations } from "./experienceContract";
import { paramsOf, ROUTES_WITH_EXAMPLES, type ExampleObjects } from "./routeExamples";

const OPENAPI = path.resolve(__dirname, "../../../shared/reference/v3-openapi.yaml");

/** OpenAPI 3.0 schema -> JSON Schema: `nullable` becomes a null type, `additionalProperties: false` is dropped. */
function toJsonSchema(node: Json): Json {
  if (Array.isArray(node)) return node.map(toJsonSchema);
  if (node === null || typeof node !== "object") return node;
  const out: Json = {};
  for (const [key, value] of Object.entries(node)) {
    if (key === "nullable" || key === "example" || key === "examples") continue;
    if (key === "additionalProperties" && value === false) continue;
    if (key === "$ref") out.$ref = `openapi${value as string}`;
    else out[key] = toJsonSchema(value);
  }
  if (node.nullable === true) {
    if (typeof out.type === "string") out.type = [out.type, "null"];
    if (Array.isArray(out.enum) && !out.enum.includes(null)) out.enum = [...out.enum, null];
    if (out.$ref || out.allOf || out.oneOf || out.anyOf) return { anyOf: [out, { type: "null" }] };
  }
  return out;
}

interface Sample {
  key: string;
  status: number;
  body: unknown;
}

const ROUTES: RouteDefinition[] = API_ROUTES;
const routeKey = (r: RouteDefinition) => `${r.method} ${r.path.replace(/:(\w+)/g, "{$1}")}`;

if (!existsSync(OPENAPI)) {
  test("OpenAPI contract (skipped: reference document absent)", () => {
    console.log(`OpenAPI contract test not run: ${OPENAPI} is not present.`);
  });
} else {
  describe("responses conform to the v3 OpenAPI document", () => {
    const document = parse(readFileSync(OPENAPI, "utf8"));
    const ajv = new Ajv({ strict: false, allErrors: true });
    addFormats(ajv);
    for (const format of ["int32", "int64", "float", "double"]) ajv.addFormat(format, true);
    ajv.addSchema({ components: toJsonSchema(document.components) }, "openapi");
    const validators = new Map<string, ValidateFunction>();

    function validatorFor(key: string, status: number): ValidateFunction | "no-body" {
      const [method, route] = key.split(" ");
      const operation = document.paths[route]?.[method.toLowerCase()];
      if (!operation) throw new Error(`${key} is not an operation of the OpenAPI document`);
      const declared = operation.responses[String(status)];
      if (!declared)
        throw new Error(`${key} answered ${status}, which the OpenAPI document does not declare`);
      const schema = declared.content?.["application/json"]?.schema;
      if (!schema) return "no-body";
      const id = `${key} ${status}`;
      let validate = validators.get(id);
      if (!validate) validators.set(id, (validate = ajv.compile(toJsonSchema(schema))));
      return validate;
    }

    let emulator: RunningEmulator;
    const samples: Sample[] = [];

    /** Call an operation by its OpenAPI key, filling `{name}` from params, and keep the answer. */
    async function probe(
      key: string,
      params: Record<string, string>,
      options: CallOptions = {},
    ): Promise<Json> {
      const [method, template] = key.split(" ");
      const filled = template.replace(/\{(\w+)\}/g, (_, name: string) => params[name]);
      const base = key === "GET /token-info" ? `${emulator.url}/api` : emulator.baseUrl;
      const response = await call(method, base + filled, { token: emulator.tokens.admin, ...options });
      samples.push({ key, status: response.status, body: response.body });
      return response.body;
    }

    beforeAll(async () => {
      emulator = await start();
      const t = emulator.tokens;
      const missing = "00000000-0000-4000-8000-000000000000";
      const reader = { token: t.readOnly };

      await probe("GET /", {}, { token: null });
      await probe("GET /token-info", {});
      await probe("GET /token-info", {}, { token: t.v2 });
      await probe("GET /token-info", {}, { token: null });
      await probe("GET /current-organization", {});
      await probe("GET /current-organization", {}, { token: t.v2 });
      await probe("GET /current-user", {});
      await probe("GET /current-user", {}, { accept: null });
      await probe("GET /current-user", {}, { token: null });

      const roles = (await probe("GET /roles", {})).data;
      const roleId = (name: string) => roles.find((r: Json) => r.name === name).id;
      await probe("GET /roles", {}, { query: { page: "x" } });
      await probe("GET /roles/{roleId}", { roleId: roleId("Admin") });
      await probe("GET /roles/{roleId}", { roleId: missing });

      const root = (await probe("POST /groups", {}, { body: { name: "Root", parentId: null } })).id;
      const folder = (await probe("POST /groups", {}, { body: { name: "Folder", parentId: root } })).id;
      const leaf = (await probe("POST /groups", {}, { body: { name: "Leaf", parentId: folder } })).id;
      await probe("POST /groups", {}, { body: { name: "" } });
      await probe("POST /groups", {}, { ...reader, body: { name: "No", parentId: null } });
      await probe("PATCH /groups/{groupId}/configure", { groupId: leaf });
      await probe("PATCH /groups/{groupId}/configure", { groupId: leaf });
      // The routes that declare their probes where they are registered (routeExamples.ts).
      const objects: ExampleObjects = {
        configuredGroup: { id: leaf, name: "Leaf" },
        unconfiguredGroup: { id: folder, name: "Folder" },
      };
      for (const { key, examples } of ROUTES_WITH_EXAMPLES)
        for (const example of [examples.success, examples.error])
          await probe(key, paramsOf(example, objects), { body: example.body });
      await probe("GET /groups", {});
      await probe("GET /groups", {}, { query: { per_page: 1000 } });
      await probe("GET /groups/{groupId}", { groupId: leaf });
      await probe("GET /groups/{groupId}", { groupId: missing });
      await probe(
        "PUT /groups/{groupId}",
        { groupId: folder },
        { body: { name: "Folder 2", parentId: root } },
      );
      await probe(
        "PUT /groups/{groupId}",
        { groupId: folder },
        { body: { name: "Folder 2", parentId: leaf } },
      );
      await probe("GET /group-hierarchy", {});
      await probe("GET /group-hierarchy", {}, { token: null });

      const apps = (await probe("GET /apps", {})).data;
      await probe("GET /apps", {}, { token: t.v2 });
      const made = (await probe("POST /apps", {}, { body: { name: "Contract App", deviceModelIds: [] } })).id;
      await probe("POST /apps", {}, { body: { name: "" } });
      await probe("POST /apps", {}, { ...reader, body: { name: "No" } });
      await probe("PUT /apps/{appId}", { appId: made }, { body: { description: "Probed", tags: ["lobby"] } });
      await probe("PUT /apps/{appId}", { appId: made }, { body: { tags: "lobby" } });
      await probe("PUT /apps/{appId}", { appId: missing }, { body: {} });
      await probe("GET /apps/{appId}", { appId: made });

      // Uploading a file: initiate, pre-sign, the part to storage (not an API operation), complete.
      const started = await probe("POST /files", {}, { body: { filename: "contract.txt", path: "/sdcard" } });
      await probe("POST /files", {}, { body: { filename: "contract.apk", path: "/sdcard" } });
      const upload = { key: started.key, uploadId: started.uploadId };
      const at = { fileId: started.fileId };
      const [part] = await probe("POST /files/{fileId}/pre-sign", at, {
        body: { ...upload, partNumbers: [1] },
      });
      await probe("POST /files/{fileId}/pre-sign", at, { body: { ...upload, partNumbers: [1, 2, 3, 4, 5] } });
      const sent = await request(part.presignedUrl, { method: "PUT", body: "contract" });
      await sent.body.text();
      const eTag = sent.headers.etag as string;
      await probe("POST /files/{fileId}/complete", at, {
        body: { ...upload, parts: [{ partNumber: 2, eTag }] },
      });
      await probe("POST /files/{fileId}/complete", at, {
        body: { ...upload, parts: [{ partNumber: 1, eTag }] },
      });
      await probe("POST /files/{fileId}/complete", at, {
        body: { ...upload, parts: [{ partNumber: 1, eTag }] },
      });
      // Uploading a video: the same protocol, with the rendering fields.
      const video = { filename: "contract.mp4", videoType: "TwoDimensional", audioEncoding: "STEREO" };
      const begun = await probe("POST /videos", {}, { body: video });
      await probe("POST /videos", {}, { body: { ...video, videoType: "ThreeSixty" } });
      const videoUpload = { key: begun.key, uploadId: begun.uploadId };
      const videoAt = { videoId: begun.videoId };
      const [videoPart] = await probe("POST /videos/{videoId}/pre-sign", videoAt, {
        body: { ...videoUpload, partNumbers: [1] },
      });
      await probe("POST /videos/{videoId}/pre-sign", videoAt, { body: { ...videoUpload, partNumbers: [] } });
      const videoSent = await request(videoPart.presignedUrl, { method: "PUT", body: "contract" });
      await videoSent.body.text();
      const videoETag = videoSent.headers.etag as string;
      await probe("POST /videos/{videoId}/complete", videoAt, {
        body: { ...videoUpload, parts: [{ partNumber: 1, eTag: "wrong" }] },
      });
      await probe("POST /videos/{videoId}/complete", videoAt, {
        body: { ...videoUpload, parts: [{ partNumber: 1, eTag: videoETag }] },
      });
      // Uploading an app build: the same protocol under the app, with its name and notes.
      const build = await probe(
        "POST /apps/{appId}/versions",
        { appId: apps[0].id },
        { body: { filename: "c.apk" } },
      );
      await probe("POST /apps/{appId}/versions", { appId: apps[0].id }, { body: { filename: "c.obb" } });
      const buildUpload = { key: build.key, uploadId: build.uploadId };
      const buildAt = { appId: apps[0].id, versionId: build.versionId };
      const [buildPart] = await probe("POST /apps/{appId}/versions/{versionId}/pre-sign", buildAt, {
        body: { ...buildUpload, partNumbers: [1] },
      });
      await probe("POST /apps/{appId}/versions/{versionId}/pre-sign", buildAt, {
        body: { ...buildUpload, partNumbers: [] },
      });
      const buildSent = await request(buildPart.presignedUrl, { method: "PUT", body: "contract" });
      await buildSent.body.text();
      await probe("POST /apps/{appId}/versions/{versionId}/complete", buildAt, {
        body: { ...buildUpload, parts: [{ partNumber: 1, eTag: "wrong" }] },
      });
      await probe("POST /apps/{appId}/versions/{versionId}/complete", buildAt, {
        body: {
          ...buildUpload,
          parts: [{ partNumber: 1, eTag: buildSent.headers.etag as string }],
          versionName: "9.0.0",
          releaseNotes: "Probed.",
        },
      });
      // Uploading an image and a custom 3D environment: the same protocol, a filename only.
      for (const [kind, idName, filename] of [
        ["images", "imageId", "contract.png"],
        ["custom-3d-environments", "custom3DEnvironmentId", "contract.glb"],
      ] as const) {
        const opened = await probe(`POST /${kind}`, {}, { body: { filename } });
        await probe(`POST /${kind}`, {}, { body: { filename: "contract.txt" } });
        const ids = { key: opened.key, uploadId: opened.uploadId };
        const pathIds = { [idName]: opened[idName] };
        const [signed] = await probe(`POST /${kind}/{${idName}}/pre-sign`, pathIds, {
          body: { ...ids, partNumbers: [1] },
        });
        await probe(`POST /${kind}/{${idName}}/pre-sign`, pathIds, { body: { ...ids, partNumbers: [] } });
        const stored = await request(signed.presignedUrl, { method: "PUT", body: "contract" });
        await stored.body.text();
        await probe(`POST /${kind}/{${idName}}/complete`, pathIds, {
          body: { ...ids, parts: [{ partNumber: 1, eTag: "wrong" }] },
        });
        await probe(`POST /${kind}/{${idName}}/complete`, pathIds, {
          body: { ...ids, parts: [{ partNumber: 1, eTag: stored.headers.etag as string }] },
        });
      }
      await probe("GET /apps/{appId}", { appId: apps[0].id });
      await probe("GET /apps/{appId}", { appId: missing });
      const channels = (await probe("GET /apps/{appId}/release-channels", { appId: apps[0].id })).data;
      await probe("GET /apps/{appId}/release-channels", { appId: missing });
      const channel = channels[0].id;
      const ids = { appId: apps[0].id, releaseChannelId: channel };
      await probe("GET /apps/{appId}/release-channels/{releaseChannelId}", ids);
      await probe("GET /apps/{appId}/release-channels/{releaseChannelId}", {
        ...ids,
        releaseChannelId: missing,
      });

      const devices = (await probe("GET /devices", {})).data;
      const [grouped, ungrouped, migrating] = devices.map((d: Json) => d.id);
      await probe("PUT /devices/{deviceId}", { deviceId: grouped }, { body: { groupId: leaf, tags: ["a"] } });
      await probe("PUT /devices/{deviceId}", { deviceId: grouped }, { body: { groupId: folder } });
      await probe("GET /devices", {}, { query: { "group_ids[]": leaf } });
      await probe("GET /devices", {}, { query: { "group_ids[]": "x" } });
      await probe("GET /devices/{deviceId}", { deviceId: grouped });
      await probe("GET /devices/{deviceId}", { deviceId: missing });

      await probe(
        "POST /groups/{groupId}/release-channels",
        { groupId: leaf },
        { body: { releaseChannelId: channel } },
      );
      await probe(
        "POST /groups/{groupId}/release-channels",
        { groupId: leaf },
        { body: { releaseChannelId: channel } },
      );
      await probe("GET /groups/{groupId}/release-channels", { groupId: leaf });
      await probe("GET /groups/{groupId}/release-channels", { groupId: missing });
      // Read while attached, so deviceStatuses is not empty.
      await probe("GET /apps/{appId}/release-channels/{releaseChannelId}", ids);
      await probe("DELETE /groups/{groupId}/release-channels/{releaseChannelId}", {
        groupId: leaf,
        releaseChannelId: channel,
      });
      await probe("DELETE /groups/{groupId}/release-channels/{releaseChannelId}", {
        groupId: leaf,
        releaseChannelId: channel,
      });

      const devicePath = { deviceId: ungrouped, releaseChannelId: channel };
      await probe("POST /devices/{deviceId}/release-channels", devicePath, {
        body: { releaseChannelId: channel },
      });
      await probe("POST /devices/{deviceId}/release-channels", devicePath, { body: {} });
      await probe("GET /devices/{deviceId}/release-channels", devicePath);
      await probe("GET /devices/{deviceId}/release-channels", { deviceId: missing });
      await probe("DELETE /devices/{deviceId}/release-channels/{releaseChannelId}", devicePath);
      await probe("DELETE /devices/{deviceId}/release-channels/{releaseChannelId}", devicePath);

      const files = (await probe("GET /files", {})).data;
      const videos = (await probe("GET /videos", {})).data;
      await probe("GET /files", {}, { query: { per_page: 0 } });
      await probe("GET /videos", {}, { query: { per_page: 0 } });
      await probe("POST /groups/{groupId}/files", { groupId: leaf }, { body: { fileId: files[0].id } });
      await probe("POST /groups/{groupId}/files", { groupId: folder }, { body: { fileId: files[0].id } });
      await probe("POST /groups/{groupId}/videos", { groupId: leaf }, { body: { videoId: videos[0].id } });
      await probe("POST /groups/{groupId}/videos", { groupId: leaf }, { body: { videoId: missing } });
      await probe("GET /files/{fileId}", { fileId: files[0].id });
      await probe("GET /files/{fileId}", { fileId: missing });
      await probe("GET /videos/{videoId}", { videoId: videos[0].id });
      await probe("GET /videos/{videoId}", { videoId: missing });
      await probe("DELETE /groups/{groupId}/files/{fileId}", { groupId: leaf, fileId: files[0].id });
      await probe("DELETE /groups/{groupId}/files/{fileId}", { groupId: leaf, fileId: files[0].id });
      await probe("DELETE /groups/{groupId}/videos/{videoId}", { groupId: leaf, videoId: videos[0].id });
      await probe("DELETE /groups/{groupId}/videos/{videoId}", { groupId: leaf, videoId: videos[0].id });
      await probe("DELETE /files/{fileId}", { fileId: files[1].id });
      await probe("DELETE /files/{fileId}", { fileId: files[1].id }, reader);
      const videoUpdate = {
        name: "Probed",
        description: null,
        videoType: "TwoDimensional",
        audioEncoding: "MONO",
      };
      await probe("PUT /videos/{videoId}", { videoId: videos[1].id }, { body: { ...videoUpdate, tags: [] } });
      await probe("PUT /videos/{videoId}", { videoId: videos[1].id }, { body: videoUpdate });
      await probe("PUT /videos/{videoId}", { videoId: missing }, { body: { ...videoUpdate, tags: [] } });
      await probe("DELETE /videos/{videoId}", { videoId: videos[1].id });
      await probe("DELETE /videos/{videoId}", { videoId: missing });

      // A device's own files and videos (ungrouped devices only).
      const content = [
        ["files", "fileId", files[0].id],
        ["videos", "videoId", videos[0].id],
      ] as const;
      for (const [segment, field, id] of content) {
        const list = `GET /devices/{deviceId}/${segment}`;
        const add = `POST /devices/{deviceId}/${segment}`;
        const remove = `DELETE /devices/{deviceId}/${segment}/{${field}}`;
        const at = { deviceId: ungrouped, [field]: id };
        await probe(add, at, { body: { [field]: id } });
        await probe(add, at, { body: { [field]: id } });
        await probe(add, at, { body: {} });
        await probe(add, at, { ...reader, body: { [field]: id } });
        await probe(add, { deviceId: grouped }, { body: { [field]: id } });
        await probe(list, at);
        await probe(list, at, { query: { per_page: 0 } });
        await probe(list, { deviceId: missing });
        await probe(remove, at);
        await probe(remove, at);
        await probe(remove, { deviceId: grouped, [field]: id });
      }

      // Sharing a release channel with another organization.
      for (const operation of ["share", "unshare"]) {
        const key = `POST /apps/{appId}/release-channels/{releaseChannelId}/${operation}`;
        await probe(key, ids, { body: { organizationSlug: "acme-staging" } });
        await probe(key, ids, { body: { organizationSlug: "acme-staging" } });
        await probe(key, ids, { body: { organizationSlug: "nowhere" } });
        await probe(key, ids, { body: {} });
        await probe(key, ids, { ...reader, body: { organizationSlug: "acme-staging" } });
        await probe(key, { ...ids, appId: missing }, { body: { organizationSlug: "acme-staging" } });
      }

      // Tags, and tags on groups, devices, apps, files and videos.
      const tag = (await probe("POST /tags", {}, { body: { name: "contract-tag" } })).id;
      await probe("POST /tags", {}, { body: { name: "contract-tag" } });
      await probe("GET /tags", {}, { query: { search: "contract" } });
      await probe("GET /tags", {}, { query: { per_page: 0 } });
      await probe("GET /tags/{tagId}", { tagId: tag });
      await probe("GET /tags/{tagId}", { tagId: missing });
      await probe("PUT /tags/{tagId}", { tagId: tag }, { body: { name: "contract-tag-2" } });
      await probe("PUT /tags/{tagId}", { tagId: tag }, { body: { name: "" } });
      const owners = [
        ["groups", "groupId", leaf],
        ["devices", "deviceId", ungrouped],
        ["apps", "appId", apps[0].id],
        ["files", "fileId", files[0].id],
        ["videos", "videoId", videos[0].id],
      ] as const;
      for (const [segment, field, id] of owners) {
        for (const action of ["attach", "detach"]) {
          const key = `PATCH /${segment}/{${field}}/tags/${action}`;
          await probe(key, { [field]: id }, { body: { tags: ["contract-tag-2"] } });
          await probe(key, { [field]: id }, { body: { tags: [] } });
          await probe(key, { [field]: missing }, { body: { tags: ["contract-tag-2"] } });
          await probe(key, { [field]: id }, { ...reader, body: { tags: ["contract-tag-2"] } });
        }
      }
      await probe("DELETE /tags/{tagId}", { tagId: tag });
      await probe("DELETE /tags/{tagId}", { tagId: tag });

      // Device filters and custom fields.
      await probe("GET /devices", {}, { query: { "tags_all[]": "lobby", "device_serial_numbers[]": "x" } });
      await probe("GET /devices", {}, { query: { "tags_all[]": "a", "tags_any[]": "b" } });
      const fields = "PATCH /devices/{deviceId}/custom-fields";
      const customFields = [{ name: "Site", value: "North" }];
      await probe(fields, { deviceId: ungrouped }, { body: { action: "attach", customFields } });
      await probe(
        fields,
        { deviceId: ungrouped },
        { body: { action: "sync", customFields: [{ name: "x" }] } },
      );
      await probe(fields, { deviceId: missing }, { body: { action: "detach", customFields } });

      // App versions and bundles, a channel's version, its simulated rollout.
      const versions = (await probe("GET /apps/{appId}/versions", { appId: apps[0].id })).data;
      await probe("GET /apps/{appId}/versions", { appId: missing });
      await probe("GET /apps/{appId}/versions", { appId: apps[0].id }, { query: { "sha256[]": "abc" } });
      const bundles = (await probe("GET /apps/{appId}/app-bundles", { appId: apps[0].id })).data;
      await probe("GET /apps/{appId}/app-bundles", { appId: apps[0].id }, { query: { status: "x" } });
      // Making a bundle: pending, a data file uploaded into it, found by checksum, labelled, finalized.
      const bundle = (await probe("POST /app-bundles", {}, { body: { appBuildId: versions[0].id } })).id;
      await probe("POST /app-bundles", {}, { body: { appBuildId: missing } });
      const inBundle = await probe(
        "POST /files",
        {},
        { body: { filename: "main.1.obb", path: "/sdcard/obb", appBundleId: bundle } },
      );
      const bundleUpload = { key: inBundle.key, uploadId: inBundle.uploadId };
      const [bundlePart] = await probe(
        "POST /files/{fileId}/pre-sign",
        { fileId: inBundle.fileId },
        { body: { ...bundleUpload, partNumbers: [1] } },
      );
      const bundleSent = await request(bundlePart.presignedUrl, { method: "PUT", body: "bundle" });
      await bundleSent.body.text();
      const bundleFile = await probe(
        "POST /files/{fileId}/complete",
        { fileId: inBundle.fileId },
        { body: { ...bundleUpload, parts: [{ partNumber: 1, eTag: bundleSent.headers.etag as string }] } },
      );
      await probe(
        "GET /apps/{appId}/files",
        { appId: apps[0].id },
        { query: { "sha512[]": bundleFile.checksum.value } },
      );
      await probe("GET /apps/{appId}/files", { appId: missing });
      const atBundle = { appBundleId: bundle };
      await probe("POST /app-bundles/{appBundleId}/files", atBundle, {
        body: { files: [{ fileId: bundleFile.id, path: "/sdcard/x" }] },
      });
      await probe("POST /app-bundles/{appBundleId}/files", atBundle, {
        body: { files: [{ fileId: missing }] },
      });
      await probe("GET /app-bundles/{appBundleId}/files", atBundle);
      await probe("GET /app-bundles/{appBundleId}/files", { appBundleId: missing });
      await probe("PATCH /app-bundles/{appBundleId}", atBundle, { body: { label: "Contract" } });
      await probe("PATCH /app-bundles/{appBundleId}", atBundle, { body: { label: "x".repeat(61) } });
      await probe("GET /app-bundles/{appBundleId}", atBundle);
      await probe("GET /app-bundles/{appBundleId}", { appBundleId: missing });
      await probe("POST /app-bundles/{appBundleId}/finalize", atBundle);
      await probe("POST /app-bundles/{appBundleId}/finalize", atBundle);
      await probe(
        "POST /groups/{groupId}/release-channels",
        { groupId: leaf },
        { body: { releaseChannelId: channel } },
      );
      const update = "PUT /apps/{appId}/release-channels/{releaseChannelId}";
      const other = versions.find((v: Json) => v.id !== channels[0].version.id).id;
      await probe(update, ids, { body: { versionId: other } });
      await probe(update, ids, { body: { bundleId: bundles[0].id } });
      await probe(update, ids, { body: { versionId: other, bundleId: bundles[0].id } });
      await probe(update, ids, { ...reader, body: { versionId: other } });
      emulator.advanceClock(3_600_000);
      const statuses = "GET /apps/{appId}/release-channels/{releaseChannelId}/device-statuses";
      await probe(statuses, ids);
      await probe("GET /apps/{appId}/release-channels/{releaseChannelId}", ids);
      await probe(statuses, { ...ids, releaseChannelId: missing });
      await probe("GET /files/{fileId}/device-statuses", { fileId: files[0].id });
      await probe("GET /files/{fileId}/device-statuses", { fileId: missing });
      await probe("GET /videos/{videoId}/device-statuses", { videoId: videos[0].id });
      await probe("GET /videos/{videoId}/device-statuses", { videoId: missing });

      const models = (await probe("GET /device-models", {})).data;
      await probe("GET /device-models", {}, { token: null });
      await probe("GET /device-models/{deviceModelId}", { deviceModelId: models[0].id });
      await probe("GET /device-models/{deviceModelId}", { deviceModelId: missing });

      const userBody = {
        firstName: "Contract",
        lastName: "User",
        email: "contract@acme.example",
        defaultRoleId: roleId("Read Only"),
        groupRoles: [{ roleId: roleId("Group Viewer"), groupId: leaf }],
      };
      const user = (await probe("POST /users", {}, { body: userBody })).id;
      await probe("POST /users", {}, { body: userBody });
      await probe("POST /users", {}, { ...reader, body: userBody });
      await probe("GET /users", {});
      await probe("GET /users", {}, { query: { per_page: 0 } });
      await probe("GET /users/{userId}", { userId: user });
      await probe("GET /users/{userId}", { userId: missing });
      const detach = { groupRoles: [{ roleId: roleId("Group Viewer"), groupId: leaf, action: "detach" }] };
      await probe("PUT /users/{userId}", { userId: user }, { body: { firstName: "Renamed", ...detach } });
      await probe("PUT /users/{userId}", { userId: user }, { body: detach });
      await probe("PUT /users/{userId}", { userId: missing }, { body: {} });
      await probe(
        "POST /user-invites",
        {},
        { body: { email: "invitee@acme.example", defaultRoleId: roleId("Admin") } },
      );
      await probe(
        "POST /user-invites",
        {},
        { body: { email: "invitee@acme.example", defaultRoleId: roleId("Admin") } },
      );
      await probe("DELETE /users/{userId}", { userId: user });
      await probe("DELETE /users/{userId}", { userId: user });

      const migrate = "POST /devices/{deviceId}/migrate/{organizationSlug}";
      await probe(
        migrate,
        { deviceId: migrating, organizationSlug: "acme-staging" },
        { token: t.noMigrate, body: {} },
      );
      await probe(
        migrate,
        { deviceId: migrating, organizationSlug: "nowhere" },
        { token: t.multiOrgAdmin, body: {} },
      );
      await probe(
        migrate,
        { deviceId: migrating, organizationSlug: "acme" },
        { token: t.multiOrgAdmin, body: {} },
      );
      await probe(
        migrate,
        { deviceId: migrating, organizationSlug: "acme-staging" },
        { token: t.multiOrgAdmin, body: {} },
      );

      await probeExperienceOperations(probe, {
        group: leaf,
        unconfiguredGroup: folder,
        groupedDevice: grouped,
        ungroupedDevice: ungrouped,
        reader,
      });

      const replacement = (await probe("POST /groups", {}, { body: { name: "Replacement", parentId: null } }))
        .id;
      await probe("DELETE /groups/{groupId}", { groupId: root });
      await probe(
        "DELETE /groups/{groupId}",
        { groupId: root },
        { query: { replacementGroupId: replacement } },
      );
      await probe("DELETE /groups/{groupId}", { groupId: root });

      // Audit records of everything above.
      await probe("GET /audit-logs", {}, { query: { per_page: 100 } });
      await probe("GET /audit-logs", {}, { query: { search: "group", start_time: "2024-01-01T00:00:00Z" } });
      await probe("GET /audit-logs", {}, { query: { start_time: "yesterday" } });
      await probe("GET /audit-logs", {}, { token: null });
      await probe("GET /audit-logs", {}, { accept: null });

      emulator.setFaults({ errorRate: 1, seed: 1 });
      for (let i = 0; i < 10; i++) await probe("GET /groups", {});
      emulator.setFaults({ errorRate: 0 });
    });
    afterAll(() => emulator.close());

    it("covers every implemented operation with a success and (except GET /) an error", () => {
      for (const route of ROUTES) {
        const key = routeKey(route);
        const statuses = samples.filter((s) => s.key === key).map((s) => s.status);
        expect({ key, success: statuses.some((s) => s < 300) }).toEqual({ key, success: true });
        if (key !== "GET /")
          expect({ key, error: statuses.some((s) => s >= 400) }).toEqual({ key, error: true });
      }
      expect(new Set(samples.map((s) => s.status))).toEqual(
        new Set([200, 201, 204, 400, 401, 403, 404, 409, 422, 500, 502, 503]),
      );
    });

    it("answers only declared statuses, with bodies the declared schemas accept", () => {
      const problems: string[] = [];
      for (const sample of samples) {
        // 502/503 come from fault injection (a gateway's answer), which the document does not model.
        if (sample.status === 502 || sample.status === 503) continue;
        let validate: ValidateFunction | "no-body";
        try {
          validate = validatorFor(sample.key, sample.status);
        } catch (error) {
          problems.push((error as Error).message);
          continue;
        }
        if (validate === "no-body") {
          if (sample.body !== undefined)
            problems.push(`${sample.key} ${sample.status} has a body but declares none`);
        } else if (!validate(sample.body)) {
          problems.push(`${sample.key} ${sample.status}: ${ajv.errorsText(validate.errors)}`);
        }
      }
      expect(problems).toEqual([]);
    });

    it("error bodies carry the status phrase", () => {
      const phrases: Record<number, string> = {
        400: "Bad Request",
        401: "Unauthorized",
        403: "Forbidden",
        404: "Not Found",
        422: "Unprocessable Entity",
        500: "Internal Server Error",
      };
      for (const sample of samples.filter((s) => phrases[s.status])) {
        expect((sample.body as Json).message).toBe(phrases[sample.status]);
      }
    });
  });
}
