// The plugin's schema against the kind definitions it is generated from: each kind's inputs, required inputs,
// secrets and replace-on-change as the definitions declare them (read here by other means than the generator's),
// every type reference resolved, and the functions answering what their schema says they return.
import { z } from "zod";
import { KINDS } from "../../provider/kinds";
import type { KindDefinition } from "../../provider/framework/kind";
import { schemaShape, type PropertySpec } from "../../provider/framework/properties";
import { packageSchema, resourceToken } from "../../provider/plugin/schema";
import type { PropertySpecJson, TypeSpec } from "../../provider/plugin/schemaTypes";
import { pluginProvider } from "../../provider/plugin/provider";
import { PluginConfiguration, configurationFailures } from "../../provider/plugin/configure";
import { FUNCTIONS } from "../../provider/plugin/functions";
import { startEmulator, type RunningEmulator } from "../../emulator";
import { DeviceMgmtClient } from "../../provider/client";
import * as pulumi from "@pulumi/pulumi";

const SECRET_KEY = pulumi.runtime.specialSigKey;
const SECRET_SIG = pulumi.runtime.specialSecretSig;

const schema = packageSchema("1.2.3");
const definitions = Object.values(KINDS) as KindDefinition[];
const specsOf = (definition: KindDefinition) =>
  Object.entries(definition.properties) as [string, PropertySpec<never>][];

describe("the schema generated from the kind table", () => {
  it("has one resource per kind, devicemgmt:index:<Type>, and nothing else", () => {
    expect(Object.keys(schema.resources).sort()).toEqual(
      definitions.map((d) => `devicemgmt:index:${d.type}`).sort(),
    );
  });

  it.each(definitions.map((d) => [d.type, d] as const))(
    "%s: inputs, required, secrets, replaces as declared",
    (_type, definition) => {
      const resource = schema.resources[resourceToken(definition.type)];
      expect(Object.keys(resource.inputProperties)).toEqual(Object.keys(definition.properties));
      // Required by zod's own reading of the object the kind checks (not the generator's per-property test).
      const objectSchema = z.toJSONSchema(z.object(schemaShape(definition.properties)), {
        io: "input",
        unrepresentable: "any",
      });
      expect([...resource.requiredInputs].sort()).toEqual(
        [...((objectSchema.required as string[]) ?? [])].sort(),
      );
      for (const [key, spec] of specsOf(definition)) {
        const input = resource.inputProperties[key];
        expect({ key, secret: input.secret === true }).toEqual({ key, secret: spec.secret === true });
        expect({ key, replace: input.replaceOnChanges === true }).toEqual({
          key,
          replace: spec.change === "replace",
        });
        if (spec.description) expect(input.description).toContain(spec.description);
        // Every declared property has a real type: none fell through to "any".
        expect({ key, ref: input.$ref }).not.toEqual({ key, ref: "pulumi.json#/Any" });
        // Outputs: the same property (secret too), without the replace flag, which only inputs carry.
        const { replaceOnChanges: _replace, ...output } = input;
        expect(resource.properties[key]).toEqual(output);
      }
      for (const output of ["organizationId", ...definition.outputs])
        expect(resource.properties[output]?.type ?? resource.properties[output]?.$ref).toBeDefined();
    },
  );

  it("resolves every type reference to a type of the schema", () => {
    const refs: string[] = [];
    const walk = (type: TypeSpec | undefined) => {
      if (!type) return;
      if (type.$ref?.startsWith("#/types/")) refs.push(type.$ref.slice("#/types/".length));
      walk(type.items);
      walk(type.additionalProperties);
    };
    const properties: PropertySpecJson[] = [
      ...Object.values(schema.resources).flatMap((r) => [
        ...Object.values(r.inputProperties),
        ...Object.values(r.properties),
      ]),
      ...Object.values(schema.types).flatMap((t) => Object.values(t.properties)),
    ];
    properties.forEach(walk);
    expect(refs.length).toBeGreaterThan(0);
    for (const ref of refs) expect(Object.keys(schema.types)).toContain(ref);
  });

  it("keeps the connection and the experience's admin PIN secret, and the provider's token", () => {
    expect(schema.resources["devicemgmt:index:Group"].inputProperties.connection).toMatchObject({
      secret: true,
      $ref: "#/types/devicemgmt:index:Connection",
    });
    expect(schema.resources["devicemgmt:index:HeadsetExperience"].inputProperties.adminPin.secret).toBe(true);
    expect(schema.resources["devicemgmt:index:User"].inputProperties.email.replaceOnChanges).toBe(true);
    expect(schema.provider.inputProperties.apiToken.secret).toBe(true);
    expect(schema.config.variables.apiToken.secret).toBe(true);
  });

  it("lists an enum's values in the description, also for an array of them, and keeps the types valid", () => {
    const walk = (type: TypeSpec | undefined): string[] =>
      type ? [...Object.keys(type), ...walk(type.items), ...walk(type.additionalProperties)] : [];
    const properties: PropertySpecJson[] = [
      ...Object.values(schema.resources).flatMap((r) => Object.values(r.inputProperties)),
      ...Object.values(schema.types).flatMap((t) => Object.values(t.properties)),
    ];
    expect(properties.flatMap(walk)).not.toContain("enumValues");
    const shortcuts = schema.resources["devicemgmt:index:HeadsetExperience"].inputProperties.shortcuts;
    expect(shortcuts.type).toBe("array");
    expect(shortcuts.description).toMatch(/Each value one of: "[^"]+"/);
  });

  it("describes every property of the kinds described so far, from their declarations", () => {
    for (const type of ["Group", "User", "Tag", "GroupReleaseChannel", "Theme", "Device", "TagSet"]) {
      const inputs = schema.resources[resourceToken(type)].inputProperties;
      const undescribed = Object.keys(inputs).filter((key) => key !== "adoptId" && !inputs[key].description);
      expect({ type, undescribed }).toEqual({ type, undescribed: [] });
    }
  });

  it("is what the plugin serves, at the plugin's version", async () => {
    const served = await pluginProvider("1.2.3", new PluginConfiguration()).getSchema!();
    expect(JSON.parse(served)).toEqual(JSON.parse(JSON.stringify(schema)));
  });
});

describe("the provider's configuration", () => {
  it("refuses a setting it does not know and a bad value, each naming the property and the fix", () => {
    const failures = configurationFailures({ baseUrl: "ftp://example.com", apitoken: "x" });
    expect(failures.map((f) => f.property).sort()).toEqual(["apitoken", "baseUrl"]);
    expect(failures.find((f) => f.property === "apitoken")?.reason).toMatch(/not a setting.*apiToken/);
    expect(failures.find((f) => f.property === "baseUrl")?.reason).toMatch(/devicemgmt:baseUrl/);
  });
});

describe("the functions, called through the plugin", () => {
  let emulator: RunningEmulator;
  beforeAll(async () => {
    emulator = await startEmulator({ port: 0 });
  });
  afterAll(async () => {
    await emulator?.close();
  });

  it("answer with the outputs their schema declares, from the configured organization", async () => {
    const configured = (apiToken: string) => {
      const configuration = new PluginConfiguration();
      configuration.configure({
        baseUrl: emulator.baseUrl,
        apiToken: { [SECRET_KEY]: SECRET_SIG, value: apiToken },
      });
      return pluginProvider("1.2.3", configuration);
    };
    const acme = configured(emulator.tokens.multiOrgAdmin);
    const staging = configured(emulator.tokens.multiOrgAdminSecondary);
    await new DeviceMgmtClient({ baseUrl: emulator.baseUrl, apiToken: emulator.tokens.admin }).groups.create({
      name: "Functions",
      parentId: null,
    });
    const args: Record<string, Record<string, unknown>> = {
      "devicemgmt:index:getGroup": { name: "Functions" },
      "devicemgmt:index:getRole": { name: "Read Only", type: "organization" },
      "devicemgmt:index:getReleaseChannel": { appName: "Training Simulator", channelName: "Production" },
      "devicemgmt:index:getTag": { name: "LOBBY" },
      "devicemgmt:index:getCurrentOrganization": {},
      "devicemgmt:index:getTokenInfo": {},
    };
    expect(Object.keys(args).sort()).toEqual(Object.keys(FUNCTIONS).sort());
    for (const [token, fn] of Object.entries(FUNCTIONS)) {
      const outputs = (await acme.invoke!(token, args[token])).outputs as Record<string, unknown>;
      const declared = fn.spec.outputs.properties;
      expect({ token, keys: Object.keys(outputs).sort() }).toEqual({
        token,
        keys: Object.keys(declared)
          .filter((k) => outputs[k] !== undefined)
          .sort(),
      });
      for (const required of fn.spec.outputs.required ?? []) expect(outputs[required]).toBeDefined();
    }
    expect((await acme.invoke!("devicemgmt:index:getTag", { name: "LOBBY" })).outputs).toMatchObject({
      name: "lobby",
    });
    // Another provider instance, another organization.
    expect((await acme.invoke!("devicemgmt:index:getCurrentOrganization", {})).outputs).toMatchObject({
      slug: "acme",
    });
    expect((await staging.invoke!("devicemgmt:index:getCurrentOrganization", {})).outputs).toMatchObject({
      slug: "acme-staging",
    });
    await expect(acme.invoke!("devicemgmt:index:getNothing", {})).rejects.toThrow(/no function.*getGroup/);
  });
});
