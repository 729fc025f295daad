/** Release-channel sharing: POST /apps/{appId}/release-channels/{releaseChannelId}/share and /unshare. */
import type { RunningEmulator } from "../../emulator";
import { client, start, validationErrors, type Client, type Json } from "./helpers";

let emulator: RunningEmulator;
let admin: Client;
let appId: string;
let channelId: string;
let otherAppChannelId: string;
let share: string;
let unshare: string;

const MISSING_ID = "00000000-0000-4000-8000-000000000000";

beforeAll(async () => {
  emulator = await start();
  admin = client(emulator, emulator.tokens.admin);
  const apps: Json[] = (await admin.get("/apps")).body.data;
  appId = apps[0].id;
  channelId = (await admin.get(`/apps/${appId}/release-channels`)).body.data[0].id;
  otherAppChannelId = (await admin.get(`/apps/${apps[1].id}/release-channels`)).body.data[0].id;
  share = `/apps/${appId}/release-channels/${channelId}/share`;
  unshare = `/apps/${appId}/release-channels/${channelId}/unshare`;
});
afterAll(() => emulator.close());

describe("share and unshare", () => {
  it("share answers 200 with the OpenAPI's message; sharing again is 422", async () => {
    const response = await admin.post(share, { organizationSlug: "acme-staging" });
    expect(response.status).toBe(200);
    expect(response.body).toEqual({
      message: "Release channel shared with organization slug: 'acme-staging'.",
    });
    expect(validationErrors(await admin.post(share, { organizationSlug: "acme-staging" }))).toEqual({
      organizationSlug: ["The release channel is already shared with this organization."],
    });
  });

  it("unshare answers 200; unsharing what is not shared is 422; then it can be shared again", async () => {
    const response = await admin.post(unshare, { organizationSlug: "acme-staging" });
    expect(response.status).toBe(200);
    expect(response.body).toEqual({
      message: "Release channel unshared with organization slug: 'acme-staging'.",
    });
    expect(validationErrors(await admin.post(unshare, { organizationSlug: "acme-staging" }))).toEqual({
      organizationSlug: ["The release channel is not shared with this organization."],
    });
    expect((await admin.post(share, { organizationSlug: "acme-staging" })).status).toBe(200);
    expect((await admin.post(unshare, { organizationSlug: "acme-staging" })).status).toBe(200);
  });

  it("v2's DELETE on .../share is gone in v3 (404)", async () => {
    expect((await admin.delete(share)).status).toBe(404);
  });
});

describe.each(["share", "unshare"])("%s validation and permissions", (operation) => {
  const path = () => `/apps/${appId}/release-channels/${channelId}/${operation}`;

  it("organizationSlug is required and must be a string", async () => {
    const required = { organizationSlug: ["The organization slug field is required."] };
    expect(validationErrors(await admin.post(path(), {}))).toEqual(required);
    expect(validationErrors(await admin.post(path(), { organizationSlug: "" }))).toEqual(required);
    expect(validationErrors(await admin.post(path(), { organizationSlug: 7 }))).toEqual({
      organizationSlug: ["The organization slug field must be a string."],
    });
    expect((await admin.post(path(), undefined, { rawBody: "[1]" })).status).toBe(400);
  });

  it("an unknown slug is 422 (a reference in the body); the caller's own organization is 422", async () => {
    expect(validationErrors(await admin.post(path(), { organizationSlug: "nowhere" }))).toEqual({
      organizationSlug: ["The selected organization slug is invalid."],
    });
    expect(validationErrors(await admin.post(path(), { organizationSlug: "acme" }))).toEqual({
      organizationSlug: ["A release channel cannot be shared with its own organization."],
    });
  });

  it("an unknown app, channel, or a channel of another app is 404 (before permission and body)", async () => {
    const reader = client(emulator, emulator.tokens.readOnly);
    const body = { organizationSlug: "acme-staging" };
    expect(
      (await reader.post(`/apps/${MISSING_ID}/release-channels/${channelId}/${operation}`, body)).status,
    ).toBe(404);
    expect((await reader.post(`/apps/${appId}/release-channels/${MISSING_ID}/${operation}`, {})).status).toBe(
      404,
    );
    expect(
      (await admin.post(`/apps/${appId}/release-channels/${otherAppChannelId}/${operation}`, body)).status,
    ).toBe(404);
  });

  it("needs RELEASE_CHANNEL__MANAGE organization-wide (403 before the body); v2 tokens get 401", async () => {
    const reader = client(emulator, emulator.tokens.readOnly);
    expect((await reader.post(path(), { organizationSlug: "acme-staging" })).status).toBe(403);
    expect((await reader.post(path(), {})).status).toBe(403);
    const v2 = client(emulator, emulator.tokens.v2);
    expect((await v2.post(path(), { organizationSlug: "acme-staging" })).status).toBe(401);
  });

  it("is scoped to the caller's organization: staging cannot address acme's channel (404)", async () => {
    const staging = client(emulator, emulator.tokens.multiOrgAdminSecondary);
    expect((await staging.post(path(), { organizationSlug: "acme" })).status).toBe(404);
  });
});
