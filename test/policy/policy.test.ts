// The example policy pack (examples/policy) on the resources of a real program: examples/org runs through the
// engine stand-in's preview, its registrations are shaped the way @pulumi/policy hands them to a policy (type
// token, props as registered, property dependencies), and every rule is shown passing and failing.
import * as path from "path";
import * as pulumi from "@pulumi/pulumi";
import type { PolicyResource, ResourceValidationPolicy, StackValidationPolicy } from "@pulumi/policy";
import { startEmulator, type RunningEmulator } from "../../emulator";
import { DeviceMgmtClient } from "../../provider/client";
import { createEngine, type Engine, type ResourceView } from "../../engine-stand-in";
import { declareOrganization, type OrganizationSettings } from "../../examples/org/organization";
import { DEFAULT_SITE_DEVICES } from "../../examples/org/sites";
import {
  adminDomains,
  folderChannel,
  kioskPin,
  maxAdmins,
  migrationTargets,
  namePattern,
  productionFromBeta,
  siteDeviceTags,
  TYPE,
  vendorBranding,
} from "../../examples/policy/policies";

const repoRoot = path.resolve(__dirname, "../..");
const KIOSK_PIN = "97531";
let emulator: RunningEmulator;
let engine: Engine;
let settings: OrganizationSettings;
let adminRoleId: string;
let safetyStableId: string;
let simulator: { productionId: string; betaId: string; betaVersionId: string; olderVersionId: string };
let resources: PolicyResource[];

/** State entries → PolicyResource, as the analyzer builds them (dependencies resolved to the resources). */
function asPolicyResources(views: ResourceView[]): PolicyResource[] {
  const byUrn = new Map<string, PolicyResource>();
  const custom = views.filter((v) => v.custom);
  for (const v of custom) {
    byUrn.set(v.urn, {
      type: v.type,
      props: v.inputs,
      urn: v.urn,
      name: v.name,
      opts: {} as PolicyResource["opts"],
      propertyDependencies: {},
      isType: () => false,
      asType: () => undefined,
    } as unknown as PolicyResource);
  }
  for (const v of custom) {
    const r = byUrn.get(v.urn)!;
    // The inputs that are another resource's id point at that resource.
    for (const [key, value] of Object.entries(v.inputs)) {
      const target = custom.find((o) => o.id !== undefined && o.id === value);
      if (target) r.propertyDependencies[key] = [byUrn.get(target.urn)!];
    }
  }
  return [...byUrn.values()];
}

const config =
  <T>(value: T) =>
  () =>
    value as never;

function runResource(policy: ResourceValidationPolicy, cfg: object, list = resources): string[] {
  const violations: string[] = [];
  const validate = policy.validateResource as (args: object, report: (m: string) => void) => void;
  for (const r of list) {
    validate({ ...r, getConfig: config(cfg), notApplicable: () => {} }, (m) => violations.push(m));
  }
  return violations;
}

function runStack(policy: StackValidationPolicy, cfg: object, list = resources): string[] {
  const violations: string[] = [];
  const validate = policy.validateStack as (args: object, report: (m: string) => void) => void;
  validate({ resources: list, getConfig: config(cfg), notApplicable: () => {} }, (m) => violations.push(m));
  return violations;
}

beforeAll(async () => {
  emulator = await startEmulator({ port: 0 });
  const client = new DeviceMgmtClient({ baseUrl: emulator.baseUrl, apiToken: emulator.tokens.multiOrgAdmin });
  const loaner = (await client.devices.all()).find((d) => d.name === "Headset 08")!;
  adminRoleId = (await client.roles.all()).find((r) => r.name === "Admin" && r.type === "organization")!.id;
  const safety = (await client.apps.all()).find((a) => a.name === "Safety Briefing")!;
  safetyStableId = (await client.apps.releaseChannels(safety.id).all()).find((c) => c.name === "Stable")!.id;
  const app = (await client.apps.all()).find((a) => a.name === "Training Simulator")!;
  const channels = await client.apps.releaseChannels(app.id).all();
  const beta = channels.find((c) => c.name === "Beta")!;
  simulator = {
    productionId: channels.find((c) => c.name === "Production")!.id,
    betaId: beta.id,
    betaVersionId: beta.version.id,
    olderVersionId: (await client.releases.versions(app.id).all()).find((v) => v.version === "2.4.0")!.id,
  };
  settings = {
    loanerDeviceId: loaner.id,
    stagingSlug: "acme-staging",
    demoDeviceName: "Headset 01",
    emailDomain: "acme.example",
    siteDevices: DEFAULT_SITE_DEVICES,
  };
  engine = await createEngine({
    cwd: repoRoot,
    config: { "devicemgmt:baseUrl": emulator.baseUrl },
    secretConfig: { "devicemgmt:apiToken": emulator.tokens.multiOrgAdmin },
  });
  const up = await engine.up(() => declareOrganization({ ...settings, kioskPin: pulumi.secret(KIOSK_PIN) }));
  expect(up.errors).toEqual([]);
  resources = asPolicyResources(engine.resources());
});

afterAll(async () => {
  await engine?.close();
  await emulator?.close();
});

it("sees the program's resources by their per-kind type tokens", () => {
  const types = new Set(resources.map((r) => r.type));
  for (const kind of [
    "Group",
    "User",
    "GroupReleaseChannel",
    "DeviceReleaseChannel",
    "DeviceMigration",
    "HeadsetExperience",
  ]) {
    expect(types).toContain(TYPE(kind));
  }
});

it("admin domains: passes for the program's domain, fails for another", () => {
  expect(runResource(adminDomains, { adminRoleId, allowedDomains: ["acme.example"] })).toEqual([]);
  expect(runResource(adminDomains, { adminRoleId, allowedDomains: ["corp.example"] })).toEqual([
    expect.stringContaining("olivia.ops@acme.example would be an organization Admin"),
  ]);
});

it("max admins: one Admin passes a limit of 1 and fails a limit of 0", () => {
  expect(runStack(maxAdmins, { adminRoleId, maxAdmins: 1 })).toEqual([]);
  expect(runStack(maxAdmins, { adminRoleId, maxAdmins: 0 })).toEqual([
    expect.stringContaining("1 users are organization Admins (olivia.ops@acme.example)"),
  ]);
});

it("folder channel: every EMEA site has Safety Stable; not every one has the Picker channel", () => {
  expect(runStack(folderChannel, { folderName: "EMEA", channelId: safetyStableId })).toEqual([]);
  const other = resources.find((r) => r.type === TYPE("GroupReleaseChannel") && r.name === "london-picker")!
    .props.releaseChannelId as string;
  expect(runStack(folderChannel, { folderName: "EMEA", channelId: other })).toEqual([
    expect.stringContaining('"Berlin Lab" (berlin) lacks release channel'),
  ]);
  // Without the attachment the program registers, the rule fails.
  const without = resources.filter((r) => r.name !== "london-safety");
  expect(runStack(folderChannel, { folderName: "EMEA", channelId: safetyStableId }, without)).toEqual([
    expect.stringContaining('"London Warehouse" (london)'),
  ]);
});

it("name pattern: the program's names pass a title-case pattern, fail a lower-case one", () => {
  expect(runResource(namePattern, { pattern: "^[A-Z][A-Za-z ]+$" })).toEqual([]);
  expect(runResource(namePattern, { pattern: "^[a-z-]+$" })).toHaveLength(6);
});

it("migration targets: acme-staging allowed passes, otherwise fails", () => {
  expect(runResource(migrationTargets, { allowedSlugs: ["acme-staging"] })).toEqual([]);
  expect(runResource(migrationTargets, { allowedSlugs: ["acme-lab"] })).toEqual([
    expect.stringContaining('Device migration to "acme-staging" is not allowed'),
  ]);
});

/** The resources with one resource's props changed, as a different program would register them. */
const withProps = (name: string, props: Record<string, unknown>) =>
  resources.map((r) => (r.name === name ? ({ ...r, props: { ...r.props, ...props } } as PolicyResource) : r));

it("kiosk PIN: the example's kiosk carries one; a kiosk with its menu on and no PIN fails", () => {
  expect(resources.find((r) => r.name === "london-kiosk")?.props.mode).toBe("arborxr-kiosk");
  expect(runStack(kioskPin, {})).toEqual([]);
  expect(runStack(kioskPin, {}, withProps("london-kiosk", { adminPin: null }))).toEqual([
    expect.stringContaining('The kiosk at "London Warehouse" (london-kiosk) has its menu on but no adminPin'),
  ]);
  const noKey = withProps("london-kiosk", {}).map((r) => {
    if (r.name !== "london-kiosk") return r;
    const { adminPin: _dropped, ...props } = r.props;
    return { ...r, props } as PolicyResource;
  });
  expect(runStack(kioskPin, {}, noKey)).toHaveLength(1);
  // Without the menu there is nothing to guard: no PIN is needed (nor taken).
  expect(runStack(kioskPin, {}, withProps("london-kiosk", { adminPin: null, isMenuEnabled: false }))).toEqual(
    [],
  );
  // The rule never prints the PIN.
  expect(runStack(kioskPin, {}, withProps("london-kiosk", { adminPin: null })).join("\n")).not.toContain(
    KIOSK_PIN,
  );
});

it("vendor branding: kept everywhere passes; removed fails unless the site is allowed", () => {
  expect(runStack(vendorBranding, {})).toEqual([]);
  const removed = withProps("austin-home", { removePoweredByArborXrBranding: true });
  expect(runStack(vendorBranding, {}, removed)).toEqual([
    expect.stringContaining(
      'The headset experience at "Austin Lab" (austin-home) removes the "Powered by ArborXR"',
    ),
  ]);
  expect(runStack(vendorBranding, { allowedSites: ["Austin Lab"] }, removed)).toEqual([]);
  expect(runStack(vendorBranding, { allowedSites: ["London Warehouse"] }, removed)).toHaveLength(1);
});

it("site device tags: each site's headsets carry its tag; a site expecting another tag fails", () => {
  const siteTags = {
    "Berlin Lab": "site-berlin",
    "London Warehouse": "site-london",
    "Austin Lab": "site-austin",
  };
  expect(ofKindIn(TYPE("Device"))).toHaveLength(4);
  expect(runStack(siteDeviceTags, { siteTags })).toEqual([]);
  expect(runStack(siteDeviceTags, { siteTags: { ...siteTags, "Berlin Lab": "site-north" } })).toEqual([
    expect.stringMatching(
      /Device berlin-headset-02 is placed in "Berlin Lab" but does not carry .*"site-north"/,
    ),
    expect.stringMatching(/Device berlin-headset-03 is placed in "Berlin Lab"/),
  ]);
  // A device moved to Austin without Austin's tag (a changed registration) fails.
  const moved = resources.map((r) =>
    r.name === "london-headset-04"
      ? ({
          ...r,
          propertyDependencies: { ...r.propertyDependencies, groupId: groupNamed("Austin Lab") },
        } as PolicyResource)
      : r,
  );
  expect(runStack(siteDeviceTags, { siteTags }, moved)).toEqual([
    expect.stringContaining(
      'Device london-headset-04 is placed in "Austin Lab" but does not carry the site\'s tag "site-austin"',
    ),
  ]);
});

it("production from beta: the example promotes Beta's build; a version Beta never had fails", () => {
  const cfg = { productionChannelIds: [simulator.productionId], betaVersionIds: [simulator.betaVersionId] };
  expect(runStack(productionFromBeta, cfg)).toEqual([]);
  expect(runStack(productionFromBeta, { ...cfg, betaVersionIds: [simulator.olderVersionId] })).toEqual([
    expect.stringContaining("simulator-production-version moves a Production channel to version"),
  ]);
  // A Beta channel the program itself moves to the version counts as on Beta.
  const withBeta = [
    ...resources,
    {
      ...resources.find((r) => r.name === "simulator-production-version")!,
      name: "simulator-beta-version",
      props: { releaseChannelId: simulator.betaId, versionId: simulator.olderVersionId },
    } as PolicyResource,
  ].map((r) =>
    r.name === "simulator-production-version"
      ? ({ ...r, props: { ...r.props, versionId: simulator.olderVersionId } } as PolicyResource)
      : r,
  );
  expect(runStack(productionFromBeta, { productionChannelIds: [simulator.productionId] }, withBeta)).toEqual([
    expect.stringContaining("not on Beta"),
  ]);
  expect(
    runStack(
      productionFromBeta,
      { productionChannelIds: [simulator.productionId], betaChannelIds: [simulator.betaId] },
      withBeta,
    ),
  ).toEqual([]);
});

const ofKindIn = (type: string) => resources.filter((r) => r.type === type);
const groupNamed = (name: string) =>
  resources.filter((r) => r.type === TYPE("Group") && r.props.name === name);
