// Issue #40 item 3: a Tag renamed and a TagSet naming tags by string, changed in one `up`, converge in that `up`
// whatever order the engine runs the two steps in. Each case on the real Pulumi CLI, the file's tags and the
// catalogue read afterwards through the API, and a second `up` that plans and writes nothing.
//
// The orders: TagSet dependsOn Tag and Tag dependsOn TagSet (forced by `dependsOn`: both legitimate programs),
// and no dependency, as reported, with the engine's parallel steps interleaved by a proxy between the plugin and
// the emulator: the rename between the set's read of the file and its write (the reported race: the detach of
// the old name missed; without the fix this case fails whenever the set's read reaches the proxy first), and the
// rename after the set's write. The proxy holds a request until the other step's request is answered, for at
// most HOLD_MS: with the fix the steps never overlap, so one hold waits that long and then goes through.
import * as http from "node:http";
import type { AddressInfo } from "node:net";
import * as path from "path";
import { startEmulator, type EmulatorOptions, type RunningEmulator } from "../../emulator";
import { DeviceMgmtClient } from "../../provider/client";
import { createEngine, type Engine, type RunResult } from "../engine";
import * as dm from "../../provider";

const repoRoot = path.resolve(__dirname, "../..");
const HOLD_MS = 20_000;

/** A promise and its resolver. */
function signal() {
  let fire!: () => void;
  const fired = new Promise<void>((resolve) => (fire = resolve));
  return { fired, fire };
}

/** Resolves when `fired` does, or after `ms`: true if it timed out. */
const waitAtMost = (fired: Promise<void>, ms: number) =>
  Promise.race([fired.then(() => false), new Promise<boolean>((r) => setTimeout(() => r(true), ms))]);

/**
 * How the proxy interleaves a run's rename of the tag with the set's requests on the file:
 * - "rename between the set's read and write": the rename waits until the file's read is answered, a write of the
 *   file's tags until the rename is answered (as reported);
 * - "rename after the set's write": the rename waits until a write of the file's tags is answered.
 */
type Interleaving = "rename between the set's read and write" | "rename after the set's write";

/** Forwards everything to the emulator; while armed (one run), holds requests to force an interleaving. */
class InterleavingProxy {
  private armed: { tagId: string; interleaving: Interleaving } | undefined;
  /** Requests held until the other step's signal, and whether the hold timed out instead. */
  readonly holds: { request: string; timedOut: boolean }[] = [];
  private readonly fileRead = signal();
  private readonly renameAnswered = signal();
  private readonly tagWriteAnswered = signal();
  private readonly server: http.Server;

  constructor(
    private readonly target: string,
    private readonly fileId: string,
  ) {
    this.server = http.createServer((req, res) => void this.forward(req, res));
  }

  /** Holds requests for `interleaving` (the rename of `tagId`) until disarmed (undefined). */
  arm(armed: { tagId: string; interleaving: Interleaving } | undefined): void {
    this.armed = armed;
  }

  async listen(): Promise<string> {
    await new Promise<void>((resolve) => this.server.listen(0, "127.0.0.1", resolve));
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}/api/v3`;
  }

  close(): Promise<void> {
    return new Promise((resolve) => this.server.close(() => resolve()));
  }

  /** What `request` waits for under the armed interleaving, if anything. */
  private heldUntil(request: string): Promise<void> | undefined {
    if (!this.armed) return undefined;
    const isRename = request === `PUT /api/v3/tags/${this.armed.tagId}`;
    if (this.armed.interleaving === "rename after the set's write")
      return isRename ? this.tagWriteAnswered.fired : undefined;
    if (isRename) return this.fileRead.fired;
    return request.startsWith(`PATCH /api/v3/files/${this.fileId}/tags/`)
      ? this.renameAnswered.fired
      : undefined;
  }

  private async forward(req: http.IncomingMessage, res: http.ServerResponse) {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const request = `${req.method} ${req.url?.split("?")[0]}`;
    const held = this.heldUntil(request);
    if (held) this.holds.push({ request, timedOut: await waitAtMost(held, HOLD_MS) });
    const answer = await fetch(this.target + req.url, {
      method: req.method,
      headers: Object.fromEntries(
        Object.entries(req.headers).filter(([k]) => !["host", "connection", "content-length"].includes(k)),
      ) as Record<string, string>,
      body: chunks.length ? Buffer.concat(chunks) : undefined,
    });
    const body = Buffer.from(await answer.arrayBuffer());
    if (this.armed) {
      if (request === `GET /api/v3/files/${this.fileId}`) this.fileRead.fire();
      if (request === `PUT /api/v3/tags/${this.armed.tagId}`) this.renameAnswered.fire();
      if (request.startsWith(`PATCH /api/v3/files/${this.fileId}/tags/`)) this.tagWriteAnswered.fire();
    }
    res.writeHead(answer.status, Object.fromEntries(answer.headers));
    res.end(body);
  }
}

type Order = "TagSet dependsOn Tag" | "Tag dependsOn TagSet" | `no dependency, ${Interleaving}`;

interface Case {
  order: Order;
  /** The tags the set declares once the tag is renamed: the renamed one dropped, or kept by its new name. */
  declared: "drops it" | "keeps it by its new name";
  strict: boolean;
}

/**
 * The program: the Tag "pilot" (named `pilotName`) and the safety manual's TagSet, naming the tags by string
 * (so nothing orders the two steps but `dependsOn`).
 */
const program = (order: Order, fileId: string, pilotName: string, tags: string[]) => () => {
  if (order === "Tag dependsOn TagSet") {
    const set = new dm.TagSet("manual-tags", { ownerType: "file", ownerId: fileId, tags });
    new dm.Tag("pilot", { name: pilotName }, { dependsOn: [set] });
  } else {
    const tag = new dm.Tag("pilot", { name: pilotName });
    const dependsOn = order === "TagSet dependsOn Tag" ? [tag] : [];
    new dm.TagSet("manual-tags", { ownerType: "file", ownerId: fileId, tags }, { dependsOn });
  }
};

const changes = (run: RunResult) =>
  [...run.steps.create, ...run.steps.update, ...run.steps.replace, ...run.steps.delete].map((s) => s.name);

const BETWEEN = "no dependency, rename between the set's read and write";
const AFTER = "no dependency, rename after the set's write";
const cases: Case[] = [
  { order: "TagSet dependsOn Tag", declared: "drops it", strict: false },
  { order: "Tag dependsOn TagSet", declared: "drops it", strict: false },
  { order: BETWEEN, declared: "drops it", strict: false },
  { order: BETWEEN, declared: "drops it", strict: true },
  { order: AFTER, declared: "drops it", strict: false },
  // Kept by its new name, literally: check accepts that name only once the Tag declaring it has been checked
  // (else it says to pass the Tag's `name` output), so only with the set depending on the Tag. Without a
  // dependency the SDK may register either first; the write under the tag's name now is tested in
  // test/framework/tagNames.pure.test.ts.
  { order: "TagSet dependsOn Tag", declared: "keeps it by its new name", strict: false },
];

describe("a Tag renamed and a TagSet naming tags by string, in one up", () => {
  let emulator: RunningEmulator | undefined;
  let proxy: InterleavingProxy | undefined;
  let engine: Engine | undefined;
  afterEach(async () => {
    await engine?.close();
    await proxy?.close();
    await emulator?.close();
  });

  test.each(cases)(
    "$order, the set $declared (repeats and unknown tags refused: $strict): declared state in that up",
    async ({ order, declared, strict }) => {
      const options: EmulatorOptions = {
        port: 0,
        strict: { rejectRepeatedTagAttach: strict, rejectUnknownTags: strict },
      };
      emulator = await startEmulator(options);
      const admin = new DeviceMgmtClient({ baseUrl: emulator.baseUrl, apiToken: emulator.tokens.admin });
      const manual = (await admin.files.all()).find((f) => f.filename === "safety-manual.pdf")!;
      const fileTags = async () => ((await admin.files.get(manual.id)).tags ?? []).slice().sort();

      proxy = new InterleavingProxy(emulator.url, manual.id);
      engine = await createEngine({
        cwd: repoRoot,
        project: "devicemgmt-step-order",
        config: { "devicemgmt:baseUrl": await proxy.listen() },
        secretConfig: { "devicemgmt:apiToken": emulator.tokens.admin },
      });
      // The start, in an order that lets the set's literal name find the tag (check refuses a name that neither
      // the catalogue nor an already checked Tag has); dependsOn is no input, so it changes nothing below.
      const start = program("TagSet dependsOn Tag", manual.id, "emea-pilot", ["safety", "emea-pilot"]);
      const first = await engine.up(start);
      expect(first.errors).toEqual([]);
      expect(await fileTags()).toEqual(["emea-pilot", "safety"]);
      const pilotId = engine.resources().find((r) => r.name === "pilot")!.id!;

      const interleaving = order.startsWith("no dependency, ")
        ? (order.slice("no dependency, ".length) as Interleaving)
        : undefined;
      proxy.arm(interleaving && { tagId: pilotId, interleaving });
      const wanted = declared === "drops it" ? ["safety"] : ["safety", "emea-pilot-2025"];
      const renamed = program(order, manual.id, "emea-pilot-2025", wanted);
      const up = await engine.up(renamed);
      proxy.arm(undefined);
      expect(up.errors).toEqual([]);
      expect(changes(up).sort()).toEqual(["manual-tags", "pilot"]);
      // The rename met the armed proxy: the two steps ran in the same window.
      if (interleaving) expect(proxy.holds.map((h) => h.request)).toContain(`PUT /api/v3/tags/${pilotId}`);

      // The declared state, in that one up: the file carries exactly the declared tags, and the catalogue has
      // the renamed tag once and the old name no more (no second tag was created by an early attach).
      expect(await fileTags()).toEqual(wanted.slice().sort());
      const catalogue = (await admin.tags.all()).map((t) => t.name.toLowerCase());
      expect(catalogue.filter((n) => n === "emea-pilot-2025")).toHaveLength(1);
      expect(catalogue).not.toContain("emea-pilot");

      // Quiet: nothing planned, nothing written.
      emulator.resetStats();
      const again = await engine.up(renamed);
      expect(again.errors).toEqual([]);
      expect(changes(again)).toEqual([]);
      expect(emulator.stats().writes).toBe(0);
      expect(await fileTags()).toEqual(wanted.slice().sort());
    },
  );
});
