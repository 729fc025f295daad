// The example policy pack (examples/policy) run by the real Pulumi CLI on examples/org: `pulumi up` and
// `pulumi preview` with `--policy-pack examples/policy --policy-pack-config <file>`, and every rule's verdict
// read from the engine's policy events. A mandatory violation fails the run; an advisory one is reported as a
// warning and the run goes on. (This CLI build has no nodejs language host, so test/engine hands the CLI a
// launcher that starts the pack folder the way the language host would: see Engine.policyPackLauncher.)
import { holdsSecret } from "../fixtures/secrets";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "fs";
import { tmpdir } from "os";
import * as path from "path";
import * as pulumi from "@pulumi/pulumi";
import * as dm from "pulumi-devicemgmt";
import { startEmulator, type RunningEmulator } from "../../emulator";
import { DeviceMgmtClient } from "../../provider/client";
import { createEngine, type Engine, type PolicyViolation, type RunResult } from "../engine";
import { declareOrganization, type OrganizationSettings } from "../../examples/org/organization";
import { DEFAULT_SITE_DEVICES } from "../../examples/org/sites";

const repoRoot = path.resolve(__dirname, "../..");
const PACK = "examples/policy";
const PACK_NAME = "devicemgmt-organization";
const KIOSK_PIN = "97531";
const SITE_TAGS = {
  "Berlin Lab": "site-berlin",
  "London Warehouse": "site-london",
  "Austin Lab": "site-austin",
};

let emulator: RunningEmulator;
let engine: Engine;
let folder: string;
let settings: OrganizationSettings;
let ids: {
  adminRoleId: string;
  safetyStableId: string;
  pickerProductionId: string;
  simulatorAppId: string;
  productionId: string;
  betaId: string;
  betaVersionId: string;
  olderVersionId: string;
};
/** The config every rule passes on examples/org: policy-config.example.json with the organization's ids. */
let passing: Record<string, Record<string, unknown>>;

/** Writes a policy pack config file and returns its path. */
let files = 0;
function configFile(config: object): string {
  const file = path.join(folder, `policy-config-${files++}.json`);
  writeFileSync(file, JSON.stringify(config, null, 2));
  return file;
}

function withConfig(changes: Record<string, Record<string, unknown>>) {
  const config = structuredClone(passing);
  for (const [policy, values] of Object.entries(changes)) config[policy] = { ...config[policy], ...values };
  return config;
}

const organization = () => declareOrganization({ ...settings, kioskPin: pulumi.secret(KIOSK_PIN) });

const preview = (program: () => unknown, config: object) =>
  engine.preview(program, { policyPacks: [PACK], policyPackConfigs: [configFile(config)] });

/** The violations of one policy, as "level: message" (the engine's message is the description, then the rule's). */
const verdicts = (result: RunResult, policy: string) =>
  result.policyViolations
    .filter((v: PolicyViolation) => v.policy === policy)
    .map((v) => `${v.enforcementLevel}: ${v.message.slice(v.message.indexOf("\n") + 1)}`);
const policiesViolated = (result: RunResult) =>
  [...new Set(result.policyViolations.map((v) => v.policy))].sort();

beforeAll(async () => {
  folder = mkdtempSync(path.join(tmpdir(), "devicemgmt-policy-"));
  emulator = await startEmulator({ port: 0 });
  const client = new DeviceMgmtClient({ baseUrl: emulator.baseUrl, apiToken: emulator.tokens.multiOrgAdmin });
  const loaner = (await client.devices.all()).find((d) => d.name === "Headset 08")!;
  const apps = await client.apps.all();
  const channelsOf = async (name: string) =>
    client.apps.releaseChannels(apps.find((a) => a.name === name)!.id).all();
  const simulator = apps.find((a) => a.name === "Training Simulator")!;
  const simulatorChannels = await channelsOf("Training Simulator");
  const beta = simulatorChannels.find((c) => c.name === "Beta")!;
  ids = {
    adminRoleId: (await client.roles.all()).find((r) => r.name === "Admin" && r.type === "organization")!.id,
    safetyStableId: (await channelsOf("Safety Briefing")).find((c) => c.name === "Stable")!.id,
    pickerProductionId: (await channelsOf("Warehouse Picker")).find((c) => c.name === "Production")!.id,
    simulatorAppId: simulator.id,
    productionId: simulatorChannels.find((c) => c.name === "Production")!.id,
    betaId: beta.id,
    // The seed's Beta build, 2.5.0-beta.3, which Production keeps (examples/org's up moves Beta to its upload).
    betaVersionId: beta.version.id,
    olderVersionId: (await client.releases.versions(simulator.id).all()).find((v) => v.version === "2.4.0")!
      .id,
  };
  settings = {
    loanerDeviceId: loaner.id,
    stagingSlug: "acme-staging",
    demoDeviceName: "Headset 01",
    emailDomain: "acme.example",
    siteDevices: DEFAULT_SITE_DEVICES,
  };
  // The example config as a person fills it in: each "<...>" placeholder replaced by the id it names.
  const example = readFileSync(path.join(repoRoot, PACK, "policy-config.example.json"), "utf8");
  const filled = example
    .replaceAll("<id of the organization role Admin>", ids.adminRoleId)
    .replaceAll("<release channel id>", ids.safetyStableId)
    .replaceAll("<id of Training Simulator / Production>", ids.productionId)
    .replaceAll("<id of Training Simulator / Beta>", ids.betaId)
    .replaceAll(
      "<id of Training Simulator 2.5.0-beta.3, which Beta shipped before examples/org's build>",
      ids.betaVersionId,
    );
  expect(filled).not.toMatch(/<[^>]*>/);
  passing = JSON.parse(filled);
  engine = await createEngine({
    cwd: repoRoot,
    config: { "devicemgmt:baseUrl": emulator.baseUrl },
    secretConfig: { "devicemgmt:apiToken": emulator.tokens.multiOrgAdmin },
  });
});

afterAll(async () => {
  await engine?.close();
  await emulator?.close();
  if (folder) rmSync(folder, { recursive: true, force: true });
});

it("the example config, filled in, passes every rule on examples/org: `pulumi up` runs the pack and goes on", async () => {
  const up = await engine.up(organization, {
    policyPacks: [PACK],
    policyPackConfigs: [configFile(passing)],
  });
  expect(up.errors).toEqual([]);
  expect(up.policyPacks).toEqual({ [PACK_NAME]: expect.any(String) });
  expect(up.policyViolations).toEqual([]);
  expect(up.ok).toBe(true);
  // The organization was written: the pack judged the same registrations the provider then created.
  const snapshot = emulator.snapshot();
  expect(snapshot.groups.map((g) => g.name)).toEqual(
    expect.arrayContaining(["EMEA", "Berlin Lab", "Austin Lab"]),
  );
  expect(up.steps.create.length).toBeGreaterThan(20);
  // The kiosk rule reads whether the PIN is there, and nothing the run printed shows it.
  expect(holdsSecret(engine.stderr(), KIOSK_PIN)).toBe(false);
});

it("the example config as committed validates against the pack's schemas; a rule left out of it fails the run", async () => {
  // Placeholders are strings, so the file is well-formed config; only the ids are wrong (the EMEA sites lack
  // a release channel named "<release channel id>", so that one rule fails).
  const example = path.join(repoRoot, PACK, "policy-config.example.json");
  const asCommitted = await engine.preview(organization, {
    policyPacks: [PACK],
    policyPackConfigs: [example],
  });
  expect(asCommitted.errors.filter((e) => /validating policy config/.test(e.message))).toEqual([]);
  expect(policiesViolated(asCommitted)).toEqual(["devicemgmt-folder-channel"]);

  // The engine validates every policy's required config before anything runs; the two rules without required
  // config (the README says which) may be left out of the file.
  const {
    "devicemgmt-site-device-tags": _left,
    "devicemgmt-vendor-branding": _optional,
    "devicemgmt-kiosk-pin": _none,
    ...without
  } = passing;
  const missing = await preview(organization, without);
  expect(missing.ok).toBe(false);
  const validation = missing.errors.map((e) => e.message).filter((m) => /is required/.test(m));
  expect(validation).toEqual(
    expect.arrayContaining([expect.stringContaining("devicemgmt-site-device-tags: siteTags is required")]),
  );
  expect(validation.join("\n")).not.toMatch(/devicemgmt-(vendor-branding|kiosk-pin)/);
  expect(missing.policyViolations).toEqual([]);
});

it("every rule fails when its config says otherwise: mandatory ones fail the preview, the advisory one warns", async () => {
  const result = await preview(
    organization,
    withConfig({
      "devicemgmt-admin-domains": { allowedDomains: ["corp.example"] },
      "devicemgmt-max-admins": { maxAdmins: 0 },
      "devicemgmt-folder-channel": { channelId: ids.pickerProductionId },
      "devicemgmt-group-names": { pattern: "^[a-z-]+$" },
      "devicemgmt-migration-targets": { allowedSlugs: ["acme-lab"] },
      "devicemgmt-site-device-tags": { siteTags: { ...SITE_TAGS, "Berlin Lab": "site-north" } },
      "devicemgmt-production-from-beta": { betaVersionIds: [ids.olderVersionId] },
    }),
  );
  expect(result.ok).toBe(false);
  for (const v of result.policyViolations) expect(v.policyPack).toBe(PACK_NAME);
  expect(verdicts(result, "devicemgmt-admin-domains")).toEqual([
    expect.stringContaining("mandatory: olivia.ops@acme.example would be an organization Admin"),
  ]);
  expect(verdicts(result, "devicemgmt-max-admins")).toEqual([
    expect.stringContaining("mandatory: 1 users are organization Admins (olivia.ops@acme.example)"),
  ]);
  expect(verdicts(result, "devicemgmt-folder-channel")).toEqual([
    expect.stringContaining('mandatory: Configured group "Berlin Lab" (berlin) lacks release channel'),
  ]);
  // Advisory: six groups, six warnings.
  expect(verdicts(result, "devicemgmt-group-names")).toHaveLength(6);
  expect(verdicts(result, "devicemgmt-group-names")).toContainEqual(
    expect.stringContaining('advisory: Group name "Berlin Lab" does not match ^[a-z-]+$'),
  );
  expect(verdicts(result, "devicemgmt-migration-targets")).toEqual([
    expect.stringContaining('mandatory: Device migration to "acme-staging" is not allowed'),
  ]);
  expect(verdicts(result, "devicemgmt-site-device-tags").sort()).toEqual([
    expect.stringMatching(/^mandatory: Device berlin-headset-02 is placed in "Berlin Lab" .*"site-north"/),
    expect.stringMatching(/^mandatory: Device berlin-headset-03 is placed in "Berlin Lab"/),
  ]);
  expect(verdicts(result, "devicemgmt-production-from-beta")).toEqual([
    expect.stringContaining("mandatory: simulator-production-version moves a Production channel to version"),
  ]);
  // The kiosk has its PIN and no experience removes the branding.
  expect(verdicts(result, "devicemgmt-kiosk-pin")).toEqual([]);
  expect(verdicts(result, "devicemgmt-vendor-branding")).toEqual([]);
  // A resource policy's violation names its resource; the folder rule names the group it found.
  const folderViolation = result.policyViolations.find((v) => v.policy === "devicemgmt-folder-channel")!;
  expect(folderViolation.urn).toMatch(/::berlin$/);
});

it("an advisory violation alone does not fail the preview", async () => {
  const result = await preview(
    organization,
    withConfig({ "devicemgmt-group-names": { pattern: "^[a-z-]+$" } }),
  );
  expect(policiesViolated(result)).toEqual(["devicemgmt-group-names"]);
  expect(result.policyViolations.every((v) => v.enforcementLevel === "advisory")).toBe(true);
  expect(result.errors).toEqual([]);
  expect(result.ok).toBe(true);
});

/**
 * examples/org changed the way a review should catch: the kiosk without its PIN, the Austin home screen without
 * the vendor's branding, London's headset 04 moved to Austin (keeping London's tag), and Production moved to
 * 2.4.0, which the program also puts on Beta (its Beta delivery, simulator-beta-version, moved from the uploaded
 * build to 2.4.0: a channel has one delivery per program). Production's delivery depends on Beta's, as the pack's
 * README says to order them: both wait for lookups, so declaring Beta's first does not make it register first.
 */
function changedOrganization() {
  let austin: dm.Group | undefined;
  let beta: dm.ReleaseChannelVersion | undefined;
  pulumi.runtime.registerStackTransformation((args) => {
    if (args.name === "austin") austin = args.resource as dm.Group;
    if (args.name === "austin-home")
      return { ...args, props: { ...args.props, removePoweredByArborXrBranding: true } };
    if (args.name === "london-headset-04") return { ...args, props: { ...args.props, groupId: austin!.id } };
    const props = deliveringVersion(args.props, ids.olderVersionId);
    if (args.name === "simulator-beta-version") {
      beta = args.resource as dm.ReleaseChannelVersion;
      return { ...args, props };
    }
    if (args.name === "simulator-production-version")
      return { props, opts: { ...args.opts, dependsOn: [beta!] } };
    return undefined;
  });
  return declareOrganization({ ...settings });
}

it("kiosk PIN, vendor branding, site tags and Production-from-Beta fail on a changed program", async () => {
  // The example's config lists the Beta channel; without it, only betaVersionIds count as on Beta.
  const result = await preview(
    changedOrganization,
    withConfig({ "devicemgmt-production-from-beta": { betaChannelIds: [] } }),
  );
  expect(result.ok).toBe(false);
  expect(policiesViolated(result)).toEqual([
    "devicemgmt-kiosk-pin",
    "devicemgmt-production-from-beta",
    "devicemgmt-site-device-tags",
    "devicemgmt-vendor-branding",
  ]);
  expect(verdicts(result, "devicemgmt-kiosk-pin")).toEqual([
    expect.stringContaining(
      `mandatory: The kiosk london-kiosk (group ${groupNamed("London Warehouse")}) has its menu on but no adminPin`,
    ),
  ]);
  expect(verdicts(result, "devicemgmt-vendor-branding")).toEqual([
    expect.stringContaining(
      'mandatory: The headset experience at "Austin Lab" (austin-home) removes the "Powered by ArborXR"',
    ),
  ]);
  expect(verdicts(result, "devicemgmt-site-device-tags")).toEqual([
    expect.stringContaining(
      'mandatory: Device london-headset-04 is placed in "Austin Lab" but does not carry the site\'s tag "site-austin"',
    ),
  ]);
  expect(verdicts(result, "devicemgmt-production-from-beta")).toEqual([
    expect.stringContaining("simulator-production-version moves a Production channel to version"),
  ]);
});

it("an allowed site may drop the branding, and a version the program puts on Beta may go to Production", async () => {
  const result = await preview(
    changedOrganization,
    withConfig({
      "devicemgmt-vendor-branding": { allowedSites: ["Austin Lab"] },
      "devicemgmt-production-from-beta": { betaChannelIds: [ids.betaId] },
    }),
  );
  expect(policiesViolated(result)).toEqual(["devicemgmt-kiosk-pin", "devicemgmt-site-device-tags"]);
  expect(result.ok).toBe(false);
});

const groupNamed = (name: string) => emulator.snapshot().groups.find((g) => g.name === name)!.id;

it("Kiosk PIN judges each experience before its step: an `up` (no preview) that drops the PIN fails, and the kiosk keeps it", async () => {
  const kioskOf = () =>
    emulator.snapshot().experiences.find((e) => e.holder.id === groupNamed("London Warehouse"))!;
  expect(kioskOf().settings).toMatchObject({ adminPin: KIOSK_PIN }); // the first test's up
  const up = await engine.up(() => declareOrganization({ ...settings }), {
    policyPacks: [PACK],
    policyPackConfigs: [configFile(passing)],
  });
  expect(up.ok).toBe(false);
  expect(policiesViolated(up)).toEqual(["devicemgmt-kiosk-pin"]);
  expect(up.steps.update.map((s) => s.name)).not.toContain("london-kiosk");
  // The kiosk was never configured without its PIN (a stack policy alone judges after every step).
  expect(kioskOf()).toMatchObject({ mode: "arborxr-kiosk", settings: { adminPin: KIOSK_PIN } });
  expect(up.output).not.toContain(KIOSK_PIN);
});

/**
 * A ReleaseChannelVersion's props moved to deliver `versionId`: examples/org's Beta delivery declares a bundle
 * (`bundleId`), and a delivery declares exactly one of the two.
 */
function deliveringVersion(props: Record<string, unknown>, versionId: pulumi.Input<string>) {
  return { ...Object.fromEntries(Object.entries(props).filter(([key]) => key !== "bundleId")), versionId };
}

/** A run every policy passed. */
function expectPassed(result: RunResult) {
  expect(result.errors).toEqual([]);
  expect(policiesViolated(result)).toEqual([]);
  expect(result.ok).toBe(true);
}

/** The rule's verdict on Production moved to a build unknown in the preview that no Beta delivery delivers. */
const refusedUnknownBuild = () => [
  expect.stringContaining(
    `mandatory: simulator-production-version moves a Production channel to a version this program creates ` +
      `(channel ${ids.productionId}), which no Beta channel (${ids.betaId}) delivers`,
  ),
];

/** Run options: the pack, its passing config but with no betaVersionIds (only declared Beta deliveries count). */
const withoutBetaVersions = () => ({
  policyPacks: [PACK],
  policyPackConfigs: [configFile(withConfig({ "devicemgmt-production-from-beta": { betaVersionIds: [] } }))],
});

/** What the Training Simulator's channels deliver now, read through the API: { Production: versionId, … }. */
async function simulatorChannels() {
  const client = new DeviceMgmtClient({ baseUrl: emulator.baseUrl, apiToken: emulator.tokens.multiOrgAdmin });
  const channels = await client.apps.releaseChannels(ids.simulatorAppId).all();
  return Object.fromEntries(channels.map((c) => [c.name, c.version.id]));
}

/** examples/org with Production moved to `versionId` (a value, or what the program gives at that point). */
function promotedOrganization(versionId: () => pulumi.Input<string>) {
  pulumi.runtime.registerStackTransformation((args) =>
    args.name === "simulator-production-version"
      ? { ...args, props: { ...args.props, versionId: versionId() } }
      : undefined,
  );
  return organization();
}

it("Production-from-Beta judges a build still unknown in a preview by the resource it comes from", async () => {
  // A build this program makes (an id known only after its create) reaches Production: through a Beta delivery
  // of the same run it passes; from anything else it is refused, though its id is not known yet. The build is
  // examples/org's own upload (simulator-build), new in this preview: another version name replaces it, so its id
  // is unknown. Through Beta: Beta delivers it (by versionId: examples/org's Beta delivers it in a bundle, and the
  // rule knows a bundle by its own id, not by its build's); around Beta: Beta delivers 2.4.0.
  const fromNew = (source: "beta" | "around") => () => {
    let build: dm.AppVersion | undefined;
    pulumi.runtime.registerStackTransformation((args) => {
      if (args.name === "simulator-build") {
        build = args.resource as dm.AppVersion;
        return { ...args, props: { ...args.props, versionName: "2.6.0-beta.2" } };
      }
      if (args.name === "simulator-beta-version" && source === "around")
        return { ...args, props: deliveringVersion(args.props, ids.olderVersionId) };
      if (args.name === "simulator-beta-version")
        return { ...args, props: deliveringVersion(args.props, build!.id) };
      return undefined;
    });
    return promotedOrganization(() => build!.id);
  };
  const config = withConfig({ "devicemgmt-production-from-beta": { betaVersionIds: [] } });
  const through = await preview(fromNew("beta"), config);
  expectPassed(through);

  const around = await preview(fromNew("around"), config);
  expect(around.ok).toBe(false);
  expect(verdicts(around, "devicemgmt-production-from-beta")).toEqual(refusedUnknownBuild());
});

it("Production-from-Beta cannot see ahead: a Production delivery registered before the Beta delivery it names is refused", async () => {
  // The rule judges each delivery before its step, knowing only what registered before it (see the pack's
  // README); here the Beta delivery waits for Production's, so Production is judged without it.
  // examples/org declares its Beta delivery first; here it also waits for Production (dependsOn a promise of the
  // Production delivery, which is declared after it), so it registers only once Production's step is done.
  const result = await preview(
    () => {
      let production: (resource: pulumi.Resource) => void = () => undefined;
      const productionDeclared = new Promise<pulumi.Resource>((resolve) => (production = resolve));
      pulumi.runtime.registerStackTransformation((args) => {
        const props = deliveringVersion(args.props, ids.olderVersionId);
        if (args.name === "simulator-beta-version")
          return { props, opts: { ...args.opts, dependsOn: productionDeclared } };
        if (args.name !== "simulator-production-version") return undefined;
        production(args.resource);
        return { ...args, props };
      });
      return organization();
    },
    withConfig({ "devicemgmt-production-from-beta": { betaVersionIds: [] } }),
  );
  expect(result.ok).toBe(false);
  expect(verdicts(result, "devicemgmt-production-from-beta")).toEqual([
    expect.stringContaining(
      `mandatory: simulator-production-version moves a Production channel to version ${ids.olderVersionId} ` +
        `(channel ${ids.productionId}), which no Beta channel (${ids.betaId}) delivers`,
    ),
  ]);
});

it("Production-from-Beta judges each move before its step: an `up` (no preview) that moves Production to a build Beta never had fails, and Production still delivers its build", async () => {
  const before = await simulatorChannels();
  expect(before.Production).toBe(ids.betaVersionId); // the first test's up: Production took Beta's build
  const up = await engine.up(() => promotedOrganization(() => ids.olderVersionId), {
    policyPacks: [PACK],
    policyPackConfigs: [configFile(passing)],
  });
  expect(up.ok).toBe(false);
  // The organization is unchanged: the channel never moved (a stack policy alone judges after every step).
  expect(await simulatorChannels()).toEqual(before);
  expect(up.steps.update).toEqual([]);
  expect(policiesViolated(up)).toEqual(["devicemgmt-production-from-beta"]);
  const [message] = verdicts(up, "devicemgmt-production-from-beta");
  // The message names the resource, the channel, the build and the fix.
  expect(message).toContain(
    `mandatory: simulator-production-version moves a Production channel to version ${ids.olderVersionId} ` +
      `(channel ${ids.productionId}), which no Beta channel (${ids.betaId}) delivers: put it on Beta first`,
  );
  expect(message).toContain("or list it in betaVersionIds once Beta ships it");
});

it("Production-from-Beta lets Production follow a Beta delivery the program declares first: the `up` moves both", async () => {
  const up = await engine.up(
    () => {
      // examples/org's Beta delivery (declared before Production's), moved to 2.4.0; Production follows it.
      let beta: dm.ReleaseChannelVersion | undefined;
      pulumi.runtime.registerStackTransformation((args) => {
        if (args.name !== "simulator-beta-version") return undefined;
        beta = args.resource as dm.ReleaseChannelVersion;
        return { ...args, props: deliveringVersion(args.props, ids.olderVersionId) };
      });
      return promotedOrganization(() => beta!.versionId);
    },
    // betaVersionIds no longer lists what Beta ships: only the declared Beta delivery lets Production move.
    withoutBetaVersions(),
  );
  expectPassed(up);
  const after = await simulatorChannels();
  expect(after.Beta).toBe(ids.olderVersionId);
  expect(after.Production).toBe(ids.olderVersionId);
});

it("Production-from-Beta judges a Beta bundle the same in a preview whose ids are unknown: following Beta's bundle passes, following its build (versionId) is refused, as the `up` refuses it", async () => {
  // Beta's delivery moves back from 2.4.0 (the test before) to examples/org's bundle, so what it delivers is
  // unknown in this preview (run alone, everything is new: unknown too).
  const following = (property: "bundleId" | "versionId") => () => {
    let beta: dm.ReleaseChannelVersion | undefined;
    pulumi.runtime.registerStackTransformation((args) => {
      if (args.name === "simulator-beta-version") beta = args.resource as dm.ReleaseChannelVersion;
      if (args.name !== "simulator-production-version") return undefined;
      const { versionId: _declared, bundleId: _also, ...props } = args.props;
      return { props: { ...props, [property]: beta![property] }, opts: args.opts };
    });
    return organization();
  };
  const config = withConfig({ "devicemgmt-production-from-beta": { betaVersionIds: [] } });
  const bundle = await preview(following("bundleId"), config);
  expectPassed(bundle);

  const build = await preview(following("versionId"), config);
  expect(build.ok).toBe(false);
  expect(verdicts(build, "devicemgmt-production-from-beta")).toEqual(refusedUnknownBuild());

  // The `up` moves Beta to the bundle of examples/org's build; Production, judged with the ids known, stays.
  const before = await simulatorChannels();
  const up = await engine.up(following("versionId"), {
    policyPacks: [PACK],
    policyPackConfigs: [configFile(config)],
  });
  expect(up.ok).toBe(false);
  expect(verdicts(up, "devicemgmt-production-from-beta")).toEqual([
    expect.stringContaining("mandatory: simulator-production-version moves a Production channel to version "),
  ]);
  const after = await simulatorChannels();
  expect(after.Beta).toBe(engine.resource("simulator-build").id);
  expect(after.Beta).not.toBe(before.Beta);
  expect(after.Production).toBe(before.Production);
});

it("Production-from-Beta counts a Beta bundle by its id: Production delivering the bundle examples/org puts on Beta passes, and the `up` moves both to its build", async () => {
  const up = await engine.up(() => {
    // examples/org's Beta delivery as committed (its bundle, bundleId); Production follows that bundle.
    let beta: dm.ReleaseChannelVersion | undefined;
    pulumi.runtime.registerStackTransformation((args) => {
      if (args.name === "simulator-beta-version") beta = args.resource as dm.ReleaseChannelVersion;
      if (args.name !== "simulator-production-version") return undefined;
      const { versionId: _moved, ...props } = args.props;
      return { props: { ...props, bundleId: beta!.bundleId }, opts: args.opts };
    });
    return organization();
  }, withoutBetaVersions());
  expectPassed(up);
  const build = engine.resource("simulator-build").id;
  expect(await simulatorChannels()).toMatchObject({ Beta: build, Production: build });
});
