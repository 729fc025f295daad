/**
 * Switches for what the documents leave open about content and sharing, each tested both ways: a repeated file or
 * video attach (422 or a no-op), whether a group's files and videos can be listed (no such operation in the
 * OpenAPI, or GET /groups/{id}/files|videos), and sharing a channel twice (422 or a no-op 200).
 */
import { optionsFromArgs } from "../../emulator/cli";
import { client, createConfiguredGroup, validationErrors, type Json } from "./helpers";
// Apart, so that the list above keeps to one line.
import { withEmulator } from "./helpers";

describe.each([false, true])("ignoreRepeatedContentAttach: %s", (ignore) => {
  it("a repeated file or video attach on a group or device is 422, or a 204 that adds nothing", () =>
    withEmulator({ strict: { ignoreRepeatedContentAttach: ignore } }, async (emulator, admin) => {
      const group = await createConfiguredGroup(admin, "Site", null);
      const device = (await admin.get("/devices")).body.data[0].id;
      const file = (await admin.get("/files")).body.data[0].id;
      const video = (await admin.get("/videos")).body.data[0].id;
      const cases = [
        [`/groups/${group}/files`, { fileId: file }],
        [`/groups/${group}/videos`, { videoId: video }],
        [`/devices/${device}/files`, { fileId: file }],
        [`/devices/${device}/videos`, { videoId: video }],
      ] as const;
      for (const [path, body] of cases) {
        expect((await admin.post(path, body)).status).toBe(204);
        const again = await admin.post(path, body);
        if (ignore) expect(again.status).toBe(204);
        else expect(Object.keys(validationErrors(again))).toEqual(Object.keys(body));
      }
      const snapshot = emulator.snapshot();
      const savedGroup = snapshot.groups.find((g) => g.id === group);
      const savedDevice = snapshot.devices.find((d) => d.id === device);
      expect([savedGroup?.fileIds, savedGroup?.videoIds]).toEqual([[file], [video]]);
      expect([savedDevice?.fileIds, savedDevice?.videoIds]).toEqual([[file], [video]]);
      // Release channels keep their rule either way.
      const app = (await admin.get("/apps")).body.data[0].id;
      const channel = (await admin.get(`/apps/${app}/release-channels`)).body.data[0].id;
      expect(
        (await admin.post(`/groups/${group}/release-channels`, { releaseChannelId: channel })).status,
      ).toBe(204);
      expect(
        (await admin.post(`/groups/${group}/release-channels`, { releaseChannelId: channel })).status,
      ).toBe(422);
    }));
});

describe.each([false, true])("listGroupContent: %s", (listing) => {
  it("GET /groups/{id}/files and /videos are 404 (no such operation) or list the group's own content", () =>
    withEmulator({ strict: { listGroupContent: listing } }, async (emulator, admin) => {
      const group = await createConfiguredGroup(admin, "Listed", null);
      const files: Json[] = (await admin.get("/files")).body.data;
      await admin.post(`/groups/${group}/files`, { fileId: files[0].id });
      await admin.post(`/groups/${group}/files`, { fileId: files[1].id });
      const listed = await admin.get(`/groups/${group}/files`);
      const videos = await admin.get(`/groups/${group}/videos`);
      if (!listing) {
        expect([listed.status, videos.status]).toEqual([404, 404]);
        return;
      }
      expect(listed.status).toBe(200);
      expect(listed.body.data.map((f: Json) => f.id).sort()).toEqual([files[0].id, files[1].id].sort());
      expect(listed.body.meta.total).toBe(2);
      expect(videos.body.data).toEqual([]);
      expect((await admin.get("/groups/00000000-0000-4000-8000-000000000000/files")).status).toBe(404);
      const reader = client(emulator, emulator.tokens.readOnly);
      expect((await reader.get(`/groups/${group}/files`)).status).toBe(200);
      expect((await client(emulator, emulator.tokens.v2).get(`/groups/${group}/files`)).status).toBe(401);
    }));
});

describe.each([false, true])("repeatShareIsNoOp: %s", (noOp) => {
  it("sharing what is shared and unsharing what is not are 422, or a 200 that changes nothing", () =>
    withEmulator({ strict: { repeatShareIsNoOp: noOp } }, async (emulator, admin) => {
      const app = (await admin.get("/apps")).body.data[0].id;
      const channel = (await admin.get(`/apps/${app}/release-channels`)).body.data[0].id;
      const path = `/apps/${app}/release-channels/${channel}`;
      const body = { organizationSlug: "acme-staging" };
      const sharedWith = () =>
        emulator.snapshot().releaseChannels.find((c) => c.id === channel)?.sharedWithOrgIds;
      expect((await admin.post(`${path}/share`, body)).status).toBe(200);
      const again = await admin.post(`${path}/share`, body);
      expect(again.status).toBe(noOp ? 200 : 422);
      if (noOp)
        expect(again.body).toEqual({
          message: "Release channel shared with organization slug: 'acme-staging'.",
        });
      expect(sharedWith()).toEqual([emulator.orgs.secondary.id]);
      expect((await admin.post(`${path}/unshare`, body)).status).toBe(200);
      expect((await admin.post(`${path}/unshare`, body)).status).toBe(noOp ? 200 : 422);
      expect(sharedWith()).toEqual([]);
      // The other rules stay: an unknown slug and the caller's own organization are 422 either way.
      expect((await admin.post(`${path}/share`, { organizationSlug: "nowhere" })).status).toBe(422);
      expect((await admin.post(`${path}/share`, { organizationSlug: "acme" })).status).toBe(422);
    }));
});

describe("command line", () => {
  it("--strict-catalog NAME turns one switch on (repeatable), --strict all; --rollout-duration-ms sets the duration", () => {
    const one = optionsFromArgs([
      "--strict-catalog",
      "list-group-content",
      "--strict-catalog",
      "reject-unknown-tags",
    ]);
    expect(one).toMatchObject({
      strict: { listGroupContent: true, rejectUnknownTags: true },
    });
    expect((one as { strict: Record<string, boolean> }).strict.repeatShareIsNoOp).toBeUndefined();
    expect(optionsFromArgs(["--strict"])).toMatchObject({
      strict: {
        mergeDeviceTagsOnPut: true,
        rejectUnknownTags: true,
        rejectRepeatedTagAttach: true,
        ignoreRepeatedContentAttach: true,
        repeatShareIsNoOp: true,
        listGroupContent: true,
      },
    });
    expect(() => optionsFromArgs(["--strict-catalog", "everything"])).toThrow(
      '--strict-catalog: unknown switch "everything"',
    );
    expect(optionsFromArgs(["--rollout-duration-ms", "5000"])).toMatchObject({
      rollouts: { durationMs: 5000 },
    });
    expect(optionsFromArgs([])).toMatchObject({ rollouts: undefined });
  });
});
