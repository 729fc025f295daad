// The plugin's Provider in process against the emulator: a resource's life through the kind's own handler, what
// the engine would record (no hidden `__claimant`, secrets marked), the resource's name from its URN, and the
// configured organization.
import * as pulumi from "@pulumi/pulumi";
import { startEmulator, type RunningEmulator } from "../../emulator";
import { pluginProvider } from "../../provider/plugin/provider";
import { PluginConfiguration } from "../../provider/plugin/configure";

const SECRET = { key: pulumi.runtime.specialSigKey, sig: pulumi.runtime.specialSecretSig };
const urn = (type: string, name: string) => `urn:pulumi:dev::yaml-project::devicemgmt:index:${type}::${name}`;

let emulator: RunningEmulator;
beforeAll(async () => {
  emulator = await startEmulator({ port: 0 });
});
afterAll(async () => {
  await emulator?.close();
});

function providerFor(apiToken: string) {
  const configuration = new PluginConfiguration();
  configuration.configure({
    baseUrl: emulator.baseUrl,
    apiToken: { [SECRET.key]: SECRET.sig, value: apiToken },
  });
  return pluginProvider("0.0.1", configuration);
}

it("creates, reads and deletes a group in the configured organization, recording no hidden input", async () => {
  const provider = providerFor(emulator.tokens.multiOrgAdminSecondary);
  const group = urn("Group", "north");
  const checked = await provider.check!(group, {}, { name: "North" });
  expect(checked.failures).toEqual([]);
  expect(Object.keys(checked.inputs).filter((k) => k.startsWith("__claimant"))).toEqual([]);
  const created = await provider.create!(group, checked.inputs);
  expect(emulator.snapshot("acme-staging").groups.find((g) => g.id === created.id)?.name).toBe("North");
  expect(emulator.snapshot().groups.find((g) => g.id === created.id)).toBeUndefined();
  expect(created.outs).not.toHaveProperty("__claimant");
  const read = await provider.read!(created.id, group, created.outs);
  expect(read).toMatchObject({ id: created.id, props: { name: "North" } });
  expect(read.props).not.toHaveProperty("__claimant");
  await provider.delete!(created.id, group, read.props);
  expect(emulator.snapshot("acme-staging").groups.find((g) => g.id === created.id)).toBeUndefined();
});

it("returns a declared connection from check as a secret, so the engine encrypts it whatever the language", async () => {
  const provider = providerFor(emulator.tokens.admin);
  const checked = await provider.check!(
    urn("Tag", "lobby"),
    {},
    { name: "lobby-2", connection: { baseUrl: emulator.baseUrl, apiToken: emulator.tokens.admin } },
  );
  expect(checked.failures).toEqual([]);
  expect(checked.inputs.connection).toEqual({
    [SECRET.key]: SECRET.sig,
    value: { baseUrl: emulator.baseUrl, apiToken: emulator.tokens.admin },
  });
});

it("names two resources of one run that declare one object by their URNs' names", async () => {
  const provider = providerFor(emulator.tokens.admin);
  const theme = { name: "Brand", background1: "#000000", background2: "#111111", text: "#ffffff" };
  const colours = { accent1: "#ff0000", accent2: "#00ff00", accent3: "#0000ff" };
  expect((await provider.check!(urn("Theme", "brand"), {}, { ...theme, ...colours })).failures).toEqual([]);
  const second = await provider.check!(urn("Theme", "brand-copy"), {}, { ...theme, ...colours });
  expect(second.failures?.[0]?.reason).toContain(
    'Theme "brand-copy" declares the custom theme "Brand", which Theme "brand" of this stack already declares.',
  );
  expect(second.failures?.[0]?.property).toBe("name");
});

it("refuses a type it does not serve, naming the ones it does", async () => {
  const provider = providerFor(emulator.tokens.admin);
  await expect(provider.check!(urn("Gadget", "x"), {}, {})).rejects.toThrow(
    /no resource type devicemgmt:index:Gadget.*devicemgmt:index:Group/,
  );
});

describe("a read of an id alone, as `pulumi import` and the import option make it", () => {
  it("returns the inputs a user declares: nothing the object lacks, declared null", async () => {
    const provider = providerFor(emulator.tokens.admin);
    const group = urn("Group", "imported");
    const created = await provider.create!(
      group,
      (await provider.check!(group, {}, { name: "Imported" })).inputs,
    );
    const read = await provider.read!(created.id, group, {});
    expect(read.id).toBe(created.id);
    expect(read.inputs).toMatchObject({ name: "Imported", configured: false });
    expect(read.inputs).not.toHaveProperty("parentId");
    // What the engine then checks as the declared inputs passes.
    expect((await provider.check!(group, read.inputs!, read.inputs!)).failures).toEqual([]);
  });

  it("refuses an id the organization does not hold, naming the kind, the id and the organization", async () => {
    const provider = providerFor(emulator.tokens.admin);
    const missing = "00000000-0000-4000-8000-000000000000";
    const organization = emulator.snapshot().organization.id;
    await expect(provider.read!(missing, urn("Group", "ghost"), {})).rejects.toThrow(
      `There is no Group with id "${missing}" in organization ${organization}`,
    );
    await expect(
      provider.read!(`${missing}/${missing}`, urn("GroupReleaseChannel", "ghost"), {}),
    ).rejects.toThrow(`There is no GroupReleaseChannel with id "${missing}/${missing}"`);
  });

  it("still lets a refresh forget an object that is gone", async () => {
    const provider = providerFor(emulator.tokens.admin);
    const group = urn("Group", "gone");
    const created = await provider.create!(
      group,
      (await provider.check!(group, {}, { name: "Gone" })).inputs,
    );
    await provider.delete!(created.id, group, created.outs!);
    expect((await provider.read!(created.id, group, created.outs!)).id).toBeUndefined();
  });
});
