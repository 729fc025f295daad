// Repair without a human: an `up` killed after a create's write reached the service (its answer lost, the CLI
// and plugin SIGKILLed while the provider looks for it) leaves the object live and the state without it. The
// next `up` of the same stack takes over what its own killed create made — Theme, Tag, User, App, File, Video, Image, GroupFile,
// GroupVideo, ReleaseChannelShare — instead of asking for adoptId; the organization holds the object once.
// Another stack meeting the same object is still refused, naming adoptId, and adoptId takes a group's file over.
import { createHash } from "crypto";
import * as fs from "fs";
import * as os from "os";
import * as path from "path";
import { startEmulator, type RunningEmulator } from "../../emulator";
import { DeviceMgmtClient } from "../../provider/client";
import { createEngine, type Engine } from "../engine";
import * as dm from "../../provider";
import { SHARED_MODE_SETTINGS as SHARED, THEME_COLOURS as colours } from "../fixtures/declarations";

const repoRoot = path.resolve(__dirname, "../..");

let emulator: RunningEmulator;
let engine: Engine;
let admin: DeviceMgmtClient;

const newEngine = () =>
  createEngine({
    cwd: repoRoot,
    config: { "devicemgmt:baseUrl": emulator.baseUrl },
    secretConfig: { "devicemgmt:apiToken": emulator.tokens.admin },
  });

beforeEach(async () => {
  emulator = await startEmulator({ port: 0 });
  admin = new DeviceMgmtClient({ baseUrl: emulator.baseUrl, apiToken: emulator.tokens.admin });
  engine = await newEngine();
});

afterEach(async () => {
  await engine?.close();
  await emulator?.close();
});

/**
 * Runs `program` with every write applied and its answer lost (slow answers), kills the run once `arrived`
 * sees the write in the organization, then runs it again without faults: that run must succeed.
 */
async function killedThenUp(program: () => void, arrived: () => boolean) {
  emulator.setFaults({ latencyMs: 300, dropAfterWriteRate: 1 });
  const interrupted = await engine.up(program, {
    interruptAfter: 1,
    interruptWhen: async () => {
      while (!arrived()) await new Promise((r) => setTimeout(r, 10));
    },
  });
  emulator.setFaults({ latencyMs: 0, dropAfterWriteRate: 0 });
  expect(interrupted.interrupted).toBe(true);
  expect(engine.pending()).toEqual([expect.objectContaining({ type: "creating" })]);
  const next = await engine.up(program);
  expect(next.warnings.join("\n")).toContain("pending operations");
  expect(next.errors).toEqual([]);
  // Quiet afterwards: what was taken over is recorded with the declared values.
  expect((await engine.up(program)).operations).toEqual([]);
  return next;
}

/**
 * Another stack (no unfinished create of its own) meets the object: it belongs to someone else, so the create is
 * refused naming adoptId, and the organization still holds it once.
 */
async function refusedInAnotherStack(program: () => void, named: () => { id: string }[]) {
  const other = await newEngine();
  try {
    const refused = await other.up(program);
    expect(refused.errors.map((e) => e.message).join("\n")).toContain(`adoptId: "${named()[0].id}"`);
    expect(named()).toHaveLength(1);
  } finally {
    await other.close();
  }
}

test("Theme: the next up takes over the theme its killed create made; another stack is still refused", async () => {
  const program = () => void new dm.Theme("brand", { name: "Brand", ...colours });
  const named = () => emulator.snapshot().themes.filter((t) => t.name === "Brand");
  await killedThenUp(program, () => named().length > 0);
  expect(named()).toHaveLength(1);
  expect(named()[0].colors).toMatchObject({ accent1: "#F2AA4C" });
  expect(engine.resource("brand").id).toBe(named()[0].id);

  await refusedInAnotherStack(program, named);
});

test("Tag: the next up takes over the tag its killed create made", async () => {
  const program = () => void new dm.Tag("lab", { name: "Lab Kit" });
  const named = () => emulator.snapshot().tags.filter((t) => t.name.toLowerCase() === "lab kit");
  await killedThenUp(program, () => named().length > 0);
  expect(named()).toHaveLength(1);
  expect(engine.resource("lab").id).toBe(named()[0].id);
});

test("User: the next up takes over the user its killed create made; another stack is still refused", async () => {
  const program = () =>
    void new dm.User("ula", {
      firstName: "Ula",
      lastName: "Repair",
      email: "ula.repair@acme.example",
      defaultRoleId: dm.getRoleOutput({ name: "Read Only", type: "organization" }).id,
    });
  const named = () => emulator.snapshot().users.filter((u) => u.email === "ula.repair@acme.example");
  await killedThenUp(program, () => named().length > 0);
  expect(named()).toHaveLength(1);
  expect(named()[0]).toMatchObject({ firstName: "Ula", lastName: "Repair" });
  expect(engine.resource("ula").id).toBe(named()[0].id);
  await refusedInAnotherStack(program, named);
});

test("App: the next up takes over the app its killed create made; another stack is still refused", async () => {
  const program = () => void new dm.App("trainer", { name: "Forklift Trainer", description: "Onboarding" });
  const named = () => emulator.snapshot().apps.filter((a) => a.name === "Forklift Trainer");
  await killedThenUp(program, () => named().length > 0);
  // One app (the API could never delete a second), with the description the killed run had not set yet.
  expect(named()).toHaveLength(1);
  expect(named()[0].description).toBe("Onboarding");
  expect(engine.resource("trainer").id).toBe(named()[0].id);
  await refusedInAnotherStack(program, named);
});

describe("a group's file and video (the API cannot list them)", () => {
  const site = () => new dm.Group("site", { name: "Site", configured: true });
  const fileOf = () => dm.getFileOutput({ filename: "safety-manual.pdf" });
  const groupOf = () => emulator.snapshot().groups.find((g) => g.name === "Site")!;

  test("GroupFile: the next up takes over the attachment its killed create made", async () => {
    expect((await engine.up(() => void site())).errors).toEqual([]);
    const program = () => void new dm.GroupFile("manual", { groupId: site().id, fileId: fileOf().id });
    await killedThenUp(program, () => groupOf().fileIds.length > 0);
    expect(groupOf().fileIds).toHaveLength(1);
    expect(engine.resource("manual").id).toBe(`${groupOf().id}/${groupOf().fileIds[0]}`);
  });

  test("GroupVideo: the next up takes over the attachment its killed create made", async () => {
    expect((await engine.up(() => void site())).errors).toEqual([]);
    const video = () => dm.getVideoOutput({ name: "Welcome Tour" });
    const program = () => void new dm.GroupVideo("tour", { groupId: site().id, videoId: video().id });
    await killedThenUp(program, () => groupOf().videoIds.length > 0);
    expect(groupOf().videoIds).toHaveLength(1);
    expect(engine.resource("tour").id).toBe(`${groupOf().id}/${groupOf().videoIds[0]}`);
  });

  test("a file attached outside the stack is refused naming adoptId, and adoptId takes it over", async () => {
    expect((await engine.up(() => void site())).errors).toEqual([]);
    const group = groupOf();
    const file = (await admin.files.all()).find((f) => f.filename === "safety-manual.pdf")!;
    await admin.groups.addFile(group.id, file.id);
    const declare = (adoptId?: string) => () =>
      void new dm.GroupFile("manual", { groupId: site().id, fileId: file.id, adoptId });
    const refused = await engine.up(declare());
    expect(refused.errors.map((e) => e.message).join("\n")).toContain(`adoptId: "${group.id}/${file.id}"`);
    // Refused again: a refused create leaves nothing that would let the next run take the file as its own.
    const again = await engine.up(declare());
    expect(again.errors.map((e) => e.message).join("\n")).toContain(`adoptId: "${group.id}/${file.id}"`);
    const adopted = await engine.up(declare(`${group.id}/${file.id}`));
    expect(adopted.errors).toEqual([]);
    expect(engine.resource("manual").id).toBe(`${group.id}/${file.id}`);
    expect(groupOf().fileIds).toEqual([file.id]);
  });
});

/**
 * An upload killed once its complete reached the service: the complete's answer is lost (and every answer slow),
 * the run killed once `named` lists the object; the next up must take it over, and the one after do nothing.
 */
async function killedUploadThenUp(program: () => void, named: () => unknown[]) {
  emulator.setFaults({ latencyMs: 300, loseCompleteAnswers: 1 });
  const interrupted = await engine.up(program, {
    interruptAfter: 1,
    interruptWhen: async () => {
      while (named().length === 0) await new Promise((r) => setTimeout(r, 10));
    },
  });
  emulator.setFaults({ latencyMs: 0, loseCompleteAnswers: 0 });
  expect(interrupted.interrupted).toBe(true);
  expect(engine.pending()).toEqual([expect.objectContaining({ type: "creating" })]);
  const next = await engine.up(program);
  expect(next.errors).toEqual([]);
  expect((await engine.up(program)).operations).toEqual([]);
}

test("File: the next up takes over the file its killed upload made; another stack is still refused", async () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "file-repair-"));
  const source = path.join(dir, "repair-notes.txt");
  fs.writeFileSync(source, "repair notes");
  const program = () => void new dm.File("notes", { source, path: "/sdcard/Docs" });
  const named = () => emulator.snapshot().files.filter((f) => f.filename === "repair-notes.txt");
  await killedUploadThenUp(program, named);
  // One file, the one the killed run uploaded, with the declared content.
  expect(named()).toHaveLength(1);
  expect(named()[0].sha512).toBe(createHash("sha512").update("repair notes").digest("hex"));
  expect(engine.resource("notes").id).toBe(named()[0].id);
  await refusedInAnotherStack(program, named);
  fs.rmSync(dir, { recursive: true, force: true });
});

test("Video: the next up takes over the video its killed upload made; another stack is still refused", async () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "video-repair-"));
  const source = path.join(dir, "repair-drill.mp4");
  fs.writeFileSync(source, "repair drill");
  const program = () =>
    void new dm.Video("drill", {
      source,
      name: "Repair Drill",
      videoType: "TwoDimensional",
      audioEncoding: "STEREO",
    });
  const named = () => emulator.snapshot().videos.filter((v) => v.filename === "repair-drill.mp4");
  await killedUploadThenUp(program, named);
  // One video, the one the killed run uploaded, with the declared content and (PUT by the repair) name.
  expect(named()).toHaveLength(1);
  expect(named()[0]).toMatchObject({
    name: "Repair Drill",
    sha512: createHash("sha512").update("repair drill").digest("hex"),
  });
  expect(engine.resource("drill").id).toBe(named()[0].id);
  await refusedInAnotherStack(program, named);
  fs.rmSync(dir, { recursive: true, force: true });
});

test("Image: the next up takes over the image its killed upload made, instead of uploading a second", async () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "image-repair-"));
  const source = path.join(dir, "repair-icon.png");
  fs.writeFileSync(source, "repair icon");
  const program = () => void new dm.Image("icon", { source });
  const named = () => emulator.snapshot().images.filter((i) => i.originalFileName === "repair-icon.png");
  await killedUploadThenUp(program, named);
  // One image, the one the killed run uploaded (the API cannot delete a second one).
  expect(named()).toHaveLength(1);
  expect(engine.resource("icon").id).toBe(named()[0].id);
  expect((await admin.images.get(named()[0].id)).status).toBe("available");
  fs.rmSync(dir, { recursive: true, force: true });
});

test("ReleaseChannelShare: the next up takes over the share its killed create made", async () => {
  const channel = emulator.snapshot().releaseChannels.find((c) => c.name === "Production")!;
  const program = () =>
    void new dm.ReleaseChannelShare("to-staging", {
      appId: channel.appId,
      releaseChannelId: channel.id,
      organizationSlug: "acme-staging",
    });
  const shared = () => emulator.snapshot().releaseChannels.find((c) => c.id === channel.id)!.sharedWithOrgIds;
  await killedThenUp(program, () => shared().length > 0);
  expect(shared()).toHaveLength(1);
  expect(engine.resource("to-staging").id).toBe(`${channel.appId}/${channel.id}/acme-staging`);
});

describe("writes that set a state are retried after a lost answer", () => {
  // Seed 18 at rate 0.5: the first write's answer is lost, the next two arrive (the dice are drawn per write).
  const firstAnswerLost = { dropAfterWriteRate: 0.5, seed: 18 };

  test("an experience's configure whose answer is lost is sent again, and the up succeeds", async () => {
    const site = () => new dm.Group("site", { name: "Site", configured: true });
    expect((await engine.up(() => void site())).errors).toEqual([]);
    const app = (await admin.apps.all())[0];
    const program = () =>
      void new dm.HeadsetExperience("kiosk", {
        groupId: site().id,
        mode: "arborxr-kiosk",
        isMenuEnabled: false,
        kioskContent: { type: "app", id: app.id },
        sharedModeSettings: SHARED,
      });
    emulator.setFaults(firstAnswerLost);
    const result = await engine.up(program);
    emulator.setFaults({ dropAfterWriteRate: 0 });
    expect(emulator.stats().faults.droppedAfterWrite).toBe(1);
    expect(result.errors).toEqual([]);
    const groupId = String(engine.resource("site").id);
    const kiosk = emulator.snapshot().experiences.filter((e) => JSON.stringify(e.holder).includes(groupId));
    expect(kiosk).toEqual([
      expect.objectContaining({
        kind: "headset",
        mode: "arborxr-kiosk",
        settings: expect.objectContaining({ kioskContent: { type: "app", id: app.id } }),
      }),
    ]);
  });

  test("an unshare whose answer is lost is sent again: the share is removed and the stack forgets it", async () => {
    const channel = emulator.snapshot().releaseChannels.find((c) => c.name === "Production")!;
    const share = () =>
      void new dm.ReleaseChannelShare("to-staging", {
        appId: channel.appId,
        releaseChannelId: channel.id,
        organizationSlug: "acme-staging",
      });
    expect((await engine.up(share)).errors).toEqual([]);
    const shared = () =>
      emulator.snapshot().releaseChannels.find((c) => c.id === channel.id)!.sharedWithOrgIds;
    expect(shared()).toHaveLength(1);
    const droppedBefore = emulator.stats().faults.droppedAfterWrite;
    emulator.setFaults(firstAnswerLost);
    const result = await engine.up(() => {});
    emulator.setFaults({ dropAfterWriteRate: 0 });
    expect(emulator.stats().faults.droppedAfterWrite - droppedBefore).toBe(1);
    expect(result.errors).toEqual([]);
    expect(shared()).toEqual([]);
    expect(engine.resources()).toHaveLength(0);
  });
});
