/**
 * The dynamic providers of the conformance suite: each expresses, in this project's words, the provider of one
 * of the engine's own Node.js dynamic-provider programs (pulumi/pulumi tests/integration/dynamic/nodejs-* and
 * tests/examples/dynamic-provider/*). They are serialized into `__provider` and run in the real plugin process,
 * so everything they use is captured by value or `require`d inside a method.
 *
 * Resource classes use `declare` for their output properties: with ES2022 class fields, a field without an
 * initializer would be redefined as `undefined` after the SDK set it in `super()`.
 */
import * as pulumi from "@pulumi/pulumi";
import { output } from "@pulumi/pulumi";

/** TestCustomResourceTypeNameDynamicNode: the module and type arguments name the resource type. */
export class TypedNameResource extends pulumi.dynamic.Resource {
  constructor(name: string) {
    const provider: pulumi.dynamic.ResourceProvider = {
      async create() {
        return { id: "resource-id", outs: {} };
      },
    };
    super(provider, name, {}, undefined, "custom-provider", "CustomResource");
  }
}

/** TestErrorCreateDynamicNode: a provider whose create always throws. */
export class FailingCreateResource extends pulumi.dynamic.Resource {
  constructor(name: string) {
    const provider: pulumi.dynamic.ResourceProvider = {
      async create(): Promise<pulumi.dynamic.CreateResult> {
        throw new Error("the create of this resource always fails");
      },
    };
    super(provider, name, {}, undefined);
  }
}

const EXPECTED_PASSWORD = "s3cret";

/** TestNodejsDynamicProviderConfig: Configure receives the stack config, secrets included, any namespace. */
class ConfigReadingProvider implements pulumi.dynamic.ResourceProvider {
  private password?: string;
  private color?: string;

  async configure(req: pulumi.dynamic.ConfigureRequest): Promise<void> {
    this.password = req.config.require("password"); // the project's namespace
    this.color = req.config.get("colors:banana") ?? "blue"; // another namespace
  }

  async create(): Promise<pulumi.dynamic.CreateResult> {
    return {
      id: "resource-id",
      outs: { authenticated: this.password === EXPECTED_PASSWORD ? "200" : "401", color: this.color },
    };
  }
}

export class ConfigReadingResource extends pulumi.dynamic.Resource {
  declare readonly authenticated: pulumi.Output<string>;
  declare readonly color: pulumi.Output<string>;
  constructor(name: string) {
    super(new ConfigReadingProvider(), name, { authenticated: undefined, color: undefined }, undefined);
  }
}

/** TestPulumiConfig: the plugin's environment carries the `pulumi-nodejs` config as PULUMI_CONFIG. */
export class EnvConfigIdResource extends pulumi.dynamic.Resource {
  constructor(name: string) {
    const provider: pulumi.dynamic.ResourceProvider = {
      async create() {
        const config = JSON.parse(process.env.PULUMI_CONFIG ?? "{}");
        return { id: config.id, outs: {} };
      },
    };
    super(provider, name, {}, undefined);
  }
}

/** TestNodejsDynamicProviderReadInputs: read answers inputs too, which a refresh stores. */
export class ReadInputsResource extends pulumi.dynamic.Resource {
  declare readonly value: pulumi.Output<string>;
  constructor(name: string, value: string) {
    const provider: pulumi.dynamic.ResourceProvider = {
      async create(inputs: Record<string, unknown>) {
        return { id: "read-inputs-id", outs: { value: inputs.value } };
      },
      async read(id: string, props: Record<string, unknown>) {
        return { id, props, inputs: { value: props.value } };
      },
    };
    super(provider, name, { value }, undefined);
  }
}

/** TestNodeJSReservedIdentifierShadowing: the provider uses an SDK export whose name shadows a reserved one. */
export class ShadowingResource extends pulumi.dynamic.Resource {
  declare readonly example: pulumi.Output<string>;
  constructor(name: string, example: pulumi.Input<string>) {
    const provider: pulumi.dynamic.ResourceProvider = {
      async create(inputs: Record<string, unknown>) {
        return { id: "nothing", outs: { example: `${output.name} ${String(inputs.example)}` } };
      },
    };
    super(provider, name, { example }, undefined);
  }
}

/** TestAccDynamicProviderClassWithComments: `create` assigned in the constructor, no outputs, a class field. */
class ConstructorAssignedProvider implements pulumi.dynamic.ResourceProvider {
  public create: (inputs: unknown) => Promise<pulumi.dynamic.CreateResult>;
  constructor() {
    // A comment inside the constructor: the serializer must cope with it.
    this.create = async () => ({ id: "0", outs: undefined });
  }
}

export class FieldCarryingResource extends pulumi.dynamic.Resource {
  public value = 4;
  constructor(name: string) {
    super(new ConstructorAssignedProvider(), name, {}, undefined);
  }
}

/**
 * TestAccDynamicProviderMultipleTurns(2), TestAccDynamicProviderDerivedInputs: a provider that does nothing; its
 * check asserts that `input`, when the resource has one, arrived.
 */
class NothingProvider implements pulumi.dynamic.ResourceProvider {
  check = async (_olds: unknown, news: Record<string, unknown>) => {
    if ("input" in news) require("assert")(news.input !== undefined);
    return { inputs: news };
  };
  diff = async () => ({});
  create = async () => ({ id: "0" });
  update = async () => ({});
  delete = async () => undefined;
}

export class NothingResource extends pulumi.dynamic.Resource {
  declare readonly input: pulumi.Output<string>;
  constructor(name: string, input?: pulumi.Input<string>) {
    super(new NothingProvider(), name, input === undefined ? {} : { input }, undefined);
  }
}

/** TestAccDynamicProviderSecrets: the provider captures a secret Output of the program. */
export class SecretCapturingResource extends pulumi.dynamic.Resource {
  declare readonly authenticated: pulumi.Output<string>;
  constructor(name: string, password: pulumi.Output<string>) {
    const provider: pulumi.dynamic.ResourceProvider = {
      async create() {
        return { id: "0", outs: { authenticated: password.get() === EXPECTED_PASSWORD ? "200" : "401" } };
      },
    };
    super(provider, name, { authenticated: undefined }, undefined);
  }
}

interface TypedInputs {
  names: string;
}
interface TypedOutputs {
  resourceId: string;
  name: string;
}

/** TestDynamicProviderGenericTypes: a provider typed by its inputs and outputs. */
class TypedProvider implements pulumi.dynamic.ResourceProvider<TypedInputs, TypedOutputs> {
  async create(): Promise<pulumi.dynamic.CreateResult<TypedOutputs>> {
    return { id: "resource-id", outs: { resourceId: "id", name: "test" } };
  }
  async check(_olds: TypedInputs, news: TypedInputs): Promise<pulumi.dynamic.CheckResult<TypedInputs>> {
    return { inputs: news };
  }
  async diff(): Promise<pulumi.dynamic.DiffResult> {
    return {};
  }
  async update(
    _id: string,
    olds: TypedOutputs,
    news: TypedInputs,
  ): Promise<pulumi.dynamic.UpdateResult<TypedOutputs>> {
    return { outs: { ...olds, name: news.names } };
  }
  async delete(): Promise<void> {}
  async read(id: string, props?: TypedOutputs): Promise<pulumi.dynamic.ReadResult<TypedOutputs>> {
    return { id, props };
  }
}

export class TypedResource extends pulumi.dynamic.Resource {
  declare readonly resourceId: pulumi.Output<string>;
  declare readonly name: pulumi.Output<string>;
  constructor(name: string, names: string) {
    super(new TypedProvider(), name, { names, resourceId: undefined, name: undefined }, undefined);
  }
}
