/**
 * Conformance (issue 22): the engine's own Node.js dynamic-provider integration programs, each re-expressed in
 * this project's words (the engine test's name is in each test's title) and run through the stand-in, with the
 * result the engine test asserts. The engine's ProgramTest also runs every program a second time and expects
 * no changes, and destroys the stack at the end: `expectSteady` and `expectDestroyed` assert those.
 */
import * as pulumi from "@pulumi/pulumi";
import type { Engine, Program, RunResult } from "../../../engine-stand-in";
import { engineTracker, repoRoot } from "../fixtures/item-fixture";
import { arithmeticProgram } from "./arithmetic";
import {
  ConfigReadingResource,
  EnvConfigIdResource,
  FailingCreateResource,
  FieldCarryingResource,
  NothingResource,
  ReadInputsResource,
  SecretCapturingResource,
  ShadowingResource,
  TypedNameResource,
  TypedResource,
} from "./providers";

const engines = engineTracker();
afterEach(() => engines.closeAll());

const newEngine = (config: Record<string, string> = {}, secretConfig: Record<string, string> = {}) =>
  engines.create({ cwd: repoRoot, config, secretConfig });

async function upClean(engine: Engine, program: Program): Promise<RunResult> {
  const result = await engine.up(program);
  expect(result.errors).toEqual([]);
  return result;
}

/** ProgramTest's second `up` of the same program: nothing to do. */
async function expectSteady(engine: Engine, program: Program): Promise<void> {
  const again = await upClean(engine, program);
  expect(again.operations).toEqual([]);
  expect(again.steps.create.length + again.steps.update.length + again.steps.replace.length).toBe(0);
  expect(again.steps.delete).toEqual([]);
}

async function expectDestroyed(engine: Engine): Promise<void> {
  const destroyed = await engine.destroy();
  expect(destroyed.errors).toEqual([]);
  expect(engine.resources().filter((r) => r.custom)).toEqual([]);
}

const names = (engine: Engine) =>
  engine
    .resources()
    .filter((r) => r.custom)
    .map((r) => r.name)
    .sort();

test("TestCustomResourceTypeNameDynamicNode: the module and type arguments make the URN's type", async () => {
  const engine = await newEngine();
  const program = () => ({ urn: new TypedNameResource("resource-name").urn });
  const result = await upClean(engine, program);
  const urn = String(result.outputs.urn);
  expect(urn.split("::")[2]).toBe("pulumi-nodejs:dynamic/custom-provider:CustomResource");
  expect(engine.resource("resource-name").type).toBe("pulumi-nodejs:dynamic/custom-provider:CustomResource");
  await expectSteady(engine, program);
  await expectDestroyed(engine);
});

test("TestErrorCreateDynamicNode: a create that throws fails the update with a create error", async () => {
  const engine = await newEngine();
  const result = await engine.up(() => ({ urn: new FailingCreateResource("resource-name").urn }));
  expect(result.ok).toBe(false);
  const createErrors = result.errors.filter((e) => e.op === "create");
  expect(createErrors).toHaveLength(1);
  expect(createErrors[0].message).toContain("the create of this resource always fails");
  expect(names(engine)).toEqual([]);
});

test("TestNodejsDynamicProviderConfig: Configure reads the stack's (secret) config of any namespace", async () => {
  const engine = await newEngine({}, { "test-project:password": "s3cret", "colors:banana": "yellow" });
  const program = () => {
    const resource = new ConfigReadingResource("resource-name");
    return { authenticated: resource.authenticated, color: resource.color };
  };
  const result = await upClean(engine, program);
  expect(result.outputs).toEqual({ authenticated: "200", color: "yellow" });
  await expectSteady(engine, program);
  await expectDestroyed(engine);
});

test("TestPulumiConfig: the plugin's PULUMI_CONFIG holds the pulumi-nodejs config", async () => {
  const engine = await newEngine({ "pulumi-nodejs:id": "testing123", "other:id": "not-this" });
  const program = () => ({ rid: new EnvConfigIdResource("resource-name").id });
  const result = await upClean(engine, program);
  expect(result.outputs).toEqual({ rid: "testing123" });
  expect(engine.resource("resource-name").id).toBe("testing123");
  await expectSteady(engine, program);
  await expectDestroyed(engine);
});

test("TestNodejsDynamicProviderReadInputs: inputs answered by read are stored by refresh; no diff after", async () => {
  const engine = await newEngine();
  const program = () => ({ resourceId: new ReadInputsResource("test", "hello").id });
  const result = await upClean(engine, program);
  expect(result.outputs).toEqual({ resourceId: "read-inputs-id" });
  const refreshed = await engine.refresh();
  expect(refreshed.errors).toEqual([]);
  expect(refreshed.steps.update).toEqual([]);
  expect(engine.resource("test").inputs).toEqual({ value: "hello" });
  // The provider text stays in the stored inputs (the engine test: inputs contain __provider).
  const checkpoint = JSON.stringify(engine.checkpoint());
  expect(checkpoint).toContain("__provider");
  const preview = await engine.preview(program);
  expect(preview.errors).toEqual([]);
  expect(preview.steps.update).toEqual([]);
  expect(preview.steps.same.map((s) => s.name)).toEqual(["test"]);
  await expectDestroyed(engine);
});

test("TestNodeJSReservedIdentifierShadowing: a provider using an SDK export named like a reserved word", async () => {
  const engine = await newEngine();
  const program = () => ({ example: new ShadowingResource("test", "words").example });
  const result = await upClean(engine, program);
  // The SDK's closure serializer gives the captured function a name of its own (`__output`); the engine test
  // asserts only that the create succeeds, which it does with the function's name and the input.
  expect(result.outputs).toEqual({ example: expect.stringMatching(/^\w*output words$/) });
  await expectSteady(engine, program);
});

test("TestAccDynamicProviderSimple: resources computing from each other's outputs, from config", async () => {
  const engine = await newEngine({ "simple:w": "1", "simple:x": "1", "simple:y": "1" });
  const result = await upClean(engine, arithmeticProgram);
  // ((1 + 1)² − 1) ÷ (1 + 1) = 1 remainder 1; 1 + 1 = 2.
  expect(result.outputs).toEqual({ outputSum: 2 });
  expect(engine.resource("divrem").outputs).toMatchObject({ quotient: 1, remainder: 1 });
  expect(names(engine)).toEqual(["diff", "divrem", "result", "square", "sum"]);
  await expectSteady(engine, arithmeticProgram);

  // The division's own check refuses a zero divisor (x + y = 0), naming the property, before any change.
  const refused = await engine.up(arithmeticProgram, { config: { "simple:x": "1", "simple:y": "-1" } });
  expect(refused.ok).toBe(false);
  expect(refused.errors.flatMap((e) => e.failures ?? [])).toEqual([
    { property: "right", reason: "divisor must be non-zero" },
  ]);
  expect(engine.resource("divrem").outputs).toMatchObject({ quotient: 1, remainder: 1 });
  await expectDestroyed(engine);
});

test("TestAccDynamicProviderClassWithComments: create assigned in a constructor, a plain class field", async () => {
  const engine = await newEngine();
  const program = () => ({ val: new FieldCarryingResource("foo").value });
  const result = await upClean(engine, program);
  expect(result.outputs).toEqual({ val: 4 });
  expect(engine.resource("foo").id).toBe("0");
  await expectSteady(engine, program);
});

const laterTurn = () => new Promise((resolve) => setTimeout(resolve, 20));

test("TestAccDynamicProviderMultipleTurns: resources registered by detached async code, in later turns", async () => {
  const engine = await newEngine();
  const seenUrns: string[] = [];
  const program = () => {
    // Detached: the program's own function returns before b and c exist (the engine waits for beforeExit).
    void (async () => {
      new NothingResource("a");
      await laterTurn();
      const b = new NothingResource("b");
      await laterTurn();
      new NothingResource("c");
      seenUrns.push(await new Promise<string>((resolve) => b.urn.apply(resolve)));
    })();
  };
  await upClean(engine, program);
  expect(names(engine)).toEqual(["a", "b", "c"]);
  expect(seenUrns).toEqual([engine.resource("b").urn]);
  // Every resource but the stack (which resources() leaves out) has a parent, the stack.
  const parents = new Set(engine.resources().map((r) => r.parent));
  expect([...parents]).toEqual([expect.stringMatching(/::pulumi:pulumi:Stack::/)]);
  await expectSteady(engine, program);
  await expectDestroyed(engine);
});

test("TestAccDynamicProviderMultipleTurns2: an input that is a promise of a resource created later", async () => {
  const engine = await newEngine();
  const program = () => {
    const input = (async () => {
      await laterTurn();
      return new NothingResource("a", "").urn;
    })();
    new NothingResource("b", input as unknown as pulumi.Input<string>);
  };
  await upClean(engine, program);
  expect(names(engine)).toEqual(["a", "b"]);
  expect(engine.resource("b").inputs).toEqual({ input: engine.resource("a").urn });
  await expectSteady(engine, program);
});

test("TestAccDynamicProviderDerivedInputs: an input derived from another resource reaches check", async () => {
  const engine = await newEngine();
  const program = () => {
    void (async () => {
      const a = new NothingResource("a", "string");
      new NothingResource("b", a.urn);
    })();
  };
  await upClean(engine, program);
  expect(engine.resource("b").inputs).toEqual({ input: engine.resource("a").urn });
  expect(engine.resource("b").dependencies).toEqual([engine.resource("a").urn]);
  await expectSteady(engine, program);
});

test("TestAccDynamicProviderSecrets: a provider capturing a secret makes __provider secret", async () => {
  const engine = await newEngine({}, { "test-project:password": "s3cret" });
  const program = () => {
    const password = new pulumi.Config().requireSecret("password");
    return { out: new SecretCapturingResource("foo", password).authenticated };
  };
  const result = await upClean(engine, program);
  expect(result.outputs).toEqual({ out: "200" });
  // __provider is encrypted in the checkpoint, inputs and outputs alike: the password is nowhere in plain text.
  const checkpoint = JSON.stringify(engine.checkpoint());
  expect(checkpoint).not.toContain("s3cret");
  const deployment = engine.checkpoint() as {
    deployment: {
      resources: Array<{ urn: string; inputs?: Record<string, unknown>; outputs?: Record<string, unknown> }>;
    };
  };
  const foo = deployment.deployment.resources.find((r) => r.urn.endsWith("::foo"))!;
  for (const value of [foo.inputs?.__provider, foo.outputs?.__provider]) {
    expect(value).toMatchObject({ "4dabf18193072939515e22adb298388d": "1b47061264138c4ac30d75fd1eb44270" });
  }
  await expectSteady(engine, program);
});

test("TestDynamicProviderGenericTypes: a provider typed by its inputs and outputs", async () => {
  const engine = await newEngine();
  const program = () => {
    const typed = new TypedResource("typed", "one");
    return { resourceId: typed.resourceId, name: typed.name };
  };
  const result = await upClean(engine, program);
  expect(result.outputs).toEqual({ resourceId: "id", name: "test" });
  await expectSteady(engine, program);
  await expectDestroyed(engine);
});
