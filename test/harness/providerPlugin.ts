/**
 * A unit-test harness for one provider: it starts the real dynamic-provider plugin of the Pulumi Node.js SDK
 * (`@pulumi/pulumi/cmd/dynamic-provider`, the process the Pulumi CLI starts to run the CRUD methods of every
 * `pulumi.dynamic.Resource`) and speaks the provider gRPC protocol to it one call at a time (configure, check,
 * diff, create, read, update, delete), converting plain JavaScript values to and from protobuf Structs. It is a
 * gRPC client of the plugin, not an engine: it plans nothing, keeps no state and runs no program. Tests of whole
 * programs run them on the real Pulumi CLI (test/engine).
 *
 * Values cross this boundary as they do on the wire: secrets (when the caller sends them) are objects marked
 * with the RPC secret signature, unknowns (previews) are the SDK's unknown sentinel string.
 */
import { spawn } from "child_process";
import * as path from "path";
import type * as grpcTypes from "@grpc/grpc-js";
import * as statusproto from "@pulumi/pulumi/proto/status_pb";
import * as provproto from "@pulumi/pulumi/proto/provider_pb";
import * as provrpc from "@pulumi/pulumi/proto/provider_grpc_pb";
import * as engproto from "@pulumi/pulumi/proto/engine_pb";
import * as engrpc from "@pulumi/pulumi/proto/engine_grpc_pb";
import * as emptyproto from "google-protobuf/google/protobuf/empty_pb";
import type * as structTypes from "google-protobuf/google/protobuf/struct_pb";

// The protobuf and gRPC classes must be the SDK's own copies, or the generated stubs reject our messages.
const sdkDir = path.dirname(require.resolve("@pulumi/pulumi/package.json"));
export const grpc: typeof grpcTypes = require(require.resolve("@grpc/grpc-js", { paths: [sdkDir] }));
export const { Struct }: typeof structTypes = require(
  require.resolve("google-protobuf/google/protobuf/struct_pb", { paths: [sdkDir] }),
);

/** The SDK's markers for secret and unknown values on the wire (see `@pulumi/pulumi/runtime/rpc`). */
export const SECRET_SIG_KEY = "4dabf18193072939515e22adb298388d";
export const SECRET_SIG = "1b47061264138c4ac30d75fd1eb44270";
export const UNKNOWN = "04da6b54-80e4-46f7-96ec-b56ff0331ba9";

export type PropertyValue = null | boolean | number | string | PropertyValue[] | PropertyMap;
export interface PropertyMap {
  [key: string]: PropertyValue;
}

/** A URN's qualified type (`parent$type`) and name: `urn:pulumi:<stack>::<project>::<qualified type>::<name>`. */
function qualifiedTypeOf(urn: string): string {
  return urn.split("::")[2] ?? "";
}

function nameOf(urn: string): string {
  return urn.split("::").slice(3).join("::");
}

/** Config as Configure receives it from the CLI: the values of the secret keys marked secret. */
function configArgs(config: Record<string, string>, secretKeys: string[]): PropertyMap {
  return Object.fromEntries(
    Object.entries(config).map(([key, value]) => [
      key,
      secretKeys.includes(key) ? { [SECRET_SIG_KEY]: SECRET_SIG, value } : value,
    ]),
  );
}

export interface PluginOptions {
  /** Working directory of the plugin: the provider text's `require`s resolve from its node_modules. */
  cwd: string;
  project?: string;
  stack?: string;
  /** Extra environment for the plugin process (on top of this process's environment). */
  env?: Record<string, string>;
}

export interface CheckFailure {
  property: string;
  reason: string;
}

export interface CheckResult {
  inputs: PropertyMap;
  failures: CheckFailure[];
}

export interface DiffResult {
  /** "unknown" when the provider has no diff method: the engine then compares old and new inputs itself. */
  changes: "some" | "none" | "unknown";
  replaces: string[];
  stables: string[];
  deleteBeforeReplace: boolean;
}

export interface CreateResult {
  id: string;
  properties: PropertyMap;
}

export interface ReadResult {
  /** Empty when the resource no longer exists. */
  id: string;
  properties: PropertyMap;
  /** Present when the provider returned inputs; they replace the stored inputs. */
  inputs?: PropertyMap;
}

/**
 * A failed provider call. `message` is the provider's own message (the gRPC status details). When a create or
 * update failed after the resource came into being (ErrorResourceInitFailed), `id` and `properties` say what
 * exists, and the engine still records it.
 */
export class ProviderCallError extends Error {
  constructor(
    readonly method: string,
    message: string,
    readonly code: number,
    readonly initFailure?: { id: string; properties: PropertyMap; reasons: string[] },
  ) {
    super(message);
    this.name = "ProviderCallError";
  }

  get id(): string | undefined {
    return this.initFailure?.id;
  }

  get properties(): PropertyMap | undefined {
    return this.initFailure?.properties;
  }
}

export interface ProviderPlugin {
  /** Stack config as the engine sends it; keys listed in `secretKeys` travel as secrets. Call it first. */
  configure(config: Record<string, string>, secretKeys?: string[]): Promise<void>;
  check(req: { urn: string; olds: PropertyMap; news: PropertyMap }): Promise<CheckResult>;
  diff(req: {
    urn: string;
    id: string;
    olds: PropertyMap;
    news: PropertyMap;
    oldInputs?: PropertyMap;
    ignoreChanges?: string[];
  }): Promise<DiffResult>;
  create(req: { urn: string; properties: PropertyMap; preview?: boolean }): Promise<CreateResult>;
  read(req: { urn: string; id: string; properties: PropertyMap; inputs?: PropertyMap }): Promise<ReadResult>;
  update(req: {
    urn: string;
    id: string;
    olds: PropertyMap;
    news: PropertyMap;
    oldInputs?: PropertyMap;
    preview?: boolean;
  }): Promise<PropertyMap>;
  delete(req: { urn: string; id: string; properties: PropertyMap; oldInputs?: PropertyMap }): Promise<void>;
  /** Stops the plugin process. */
  close(): Promise<void>;
  /** Everything the plugin wrote to stderr so far (provider `console.error`, the plugin's error traces). */
  stderr(): string;
  /** What the plugin logged to the engine so far (the SDK's `pulumi.log`), as the CLI would show it. */
  logs(): EngineLog[];
  /** Everything the plugin wrote to stdout after announcing its port (provider `console.log`). */
  stdout(): string;
}

function toStruct(method: string, value: PropertyMap): structTypes.Struct {
  try {
    return Struct.fromJavaScript(value as Record<string, structTypes.JavaScriptValue>);
  } catch (err) {
    throw new Error(`${method}: cannot encode properties as a protobuf Struct: ${(err as Error).message}`);
  }
}

function fromStruct(struct: structTypes.Struct | undefined): PropertyMap {
  return (struct?.toJavaScript() ?? {}) as PropertyMap;
}

function initFailureOf(err: grpcTypes.ServiceError): ProviderCallError["initFailure"] {
  const [raw] = err.metadata?.get("grpc-status-details-bin") ?? [];
  if (raw === undefined) {
    return undefined;
  }
  const status = statusproto.Status.deserializeBinary(new Uint8Array(raw as Buffer));
  for (const detail of status.getDetailsList()) {
    if (detail.getTypeName() === "pulumirpc.ErrorResourceInitFailed") {
      const failure = provproto.ErrorResourceInitFailed.deserializeBinary(detail.getValue_asU8());
      return {
        id: failure.getId(),
        properties: fromStruct(failure.getProperties()),
        reasons: failure.getReasonsList(),
      };
    }
  }
  return undefined;
}

export interface EngineLog {
  severity: "debug" | "info" | "warning" | "error";
  message: string;
  /** The resource the message is about; none for the stack. */
  urn?: string;
}

const SEVERITIES: Record<number, EngineLog["severity"]> = {
  [engproto.LogSeverity.DEBUG]: "debug",
  [engproto.LogSeverity.INFO]: "info",
  [engproto.LogSeverity.WARNING]: "warning",
  [engproto.LogSeverity.ERROR]: "error",
};

/** The engine's side of a plugin's Log calls, as the CLI serves it to every plugin: recorded, in order. */
async function startLogRecorder(): Promise<{ address: string; logs: EngineLog[]; stop(): void }> {
  const logs: EngineLog[] = [];
  const server = new grpc.Server();
  server.addService(engrpc.EngineService, {
    log(
      call: grpcTypes.ServerUnaryCall<engproto.LogRequest, unknown>,
      callback: grpcTypes.sendUnaryData<unknown>,
    ) {
      const request = call.request;
      logs.push({
        severity: SEVERITIES[request.getSeverity()] ?? "info",
        message: request.getMessage(),
        ...(request.getUrn() ? { urn: request.getUrn() } : {}),
      });
      callback(null, new emptyproto.Empty());
    },
  } as unknown as grpcTypes.UntypedServiceImplementation);
  const port = await new Promise<number>((resolve, reject) =>
    server.bindAsync("127.0.0.1:0", grpc.ServerCredentials.createInsecure(), (err, bound) =>
      err ? reject(err) : resolve(bound),
    ),
  );
  return { address: `127.0.0.1:${port}`, logs, stop: () => server.forceShutdown() };
}

// With `node -e`, argv is [node, script, engineAddress]: exactly what the plugin's main reads.
const PLUGIN_WRAPPER = "process.stdin.on('end', () => process.exit(0)).resume(); require(process.argv[1]);";

/** Starts the plugin in `cwd` and resolves once it listens (it prints its port, as for the engine). */
export async function startProviderPlugin(options: PluginOptions): Promise<ProviderPlugin> {
  const script = require.resolve("@pulumi/pulumi/cmd/dynamic-provider/index.js", { paths: [options.cwd] });
  // The engine address argument is the plugin's, dialled for its logs only: this harness records them.
  // The plugin is loaded by a two-line wrapper that exits when our end of its stdin closes, so a plugin never
  // outlives a test process that died before close() (jest's sandboxed `process` gets no real "exit" event).
  const engine = await startLogRecorder();
  const child = spawn(process.execPath, ["-e", PLUGIN_WRAPPER, script, engine.address], {
    cwd: options.cwd,
    env: {
      ...process.env,
      // provider_plugin.go, NewProvider: the project for the Node.js SDK and for every plugin.
      PULUMI_NODEJS_PROJECT: options.project ?? "project",
      PULUMI_PROJECT: options.project ?? "project",
      PULUMI_NODEJS_STACK: options.stack ?? "stack",
      ...options.env,
    },
    stdio: ["pipe", "pipe", "pipe"],
  });
  let stderr = "";
  let stdout = "";
  child.stderr.setEncoding("utf8").on("data", (chunk: string) => (stderr += chunk));

  const port = await new Promise<number>((resolve, reject) => {
    let announced = false;
    child.stdout.setEncoding("utf8").on("data", (chunk: string) => {
      stdout += chunk;
      if (!announced && stdout.includes("\n")) {
        announced = true;
        const [first, ...rest] = stdout.split("\n");
        stdout = rest.join("\n");
        resolve(Number(first.trim()));
      }
    });
    child.once("error", reject);
    child.once("exit", (code, signal) => {
      if (!announced) {
        reject(
          new Error(`provider plugin exited before listening (code ${code}, signal ${signal}):\n${stderr}`),
        );
      }
    });
  });

  const client = new provrpc.ResourceProviderClient(`127.0.0.1:${port}`, grpc.credentials.createInsecure());

  type Callback<Res> = (err: grpcTypes.ServiceError | null, response: Res) => void;
  function call<Res>(method: string, send: (callback: Callback<Res>) => unknown): Promise<Res> {
    return new Promise<Res>((resolve, reject) => {
      send((err, response) => {
        if (err) {
          const exited = child.exitCode !== null || child.signalCode !== null;
          const message = err.details || err.message;
          reject(
            new ProviderCallError(
              method,
              exited ? `${message} (the plugin has exited; stderr:\n${stderr})` : message,
              err.code,
              initFailureOf(err),
            ),
          );
        } else {
          resolve(response);
        }
      });
    });
  }

  const withUrn = <
    T extends { setUrn(urn: string): unknown; setName(n: string): unknown; setType(t: string): unknown },
  >(
    request: T,
    urn: string,
  ): T => {
    // The type and name the engine also sends: the URN's own type (its qualified type's last part) and name.
    request.setUrn(urn);
    request.setName(nameOf(urn));
    request.setType(qualifiedTypeOf(urn).split("$").pop() ?? "");
    return request;
  };

  /** Ends the plugin process (SIGTERM) and resolves once it exited. */
  const stop = async () => {
    client.close();
    engine.stop();
    if (child.exitCode === null && child.signalCode === null) {
      await new Promise<void>((resolve) => {
        child.once("exit", () => resolve());
        child.kill("SIGTERM");
      });
    }
  };

  return {
    async configure(config, secretKeys = []) {
      const request = new provproto.ConfigureRequest();
      request.setArgs(toStruct("configure", configArgs(config, secretKeys)));
      request.setAcceptsecrets(true);
      request.setAcceptresources(true);
      request.setSendsOldInputs(true);
      request.setSendsOldInputsToDelete(true);
      await call("configure", (cb) => client.configure(request, cb));
    },

    async check({ urn, olds, news }) {
      const request = withUrn(new provproto.CheckRequest(), urn);
      request.setOlds(toStruct("check", olds));
      request.setNews(toStruct("check", news));
      const response = await call<provproto.CheckResponse>("check", (cb) => client.check(request, cb));
      return {
        inputs: fromStruct(response.getInputs()),
        failures: response
          .getFailuresList()
          .map((f) => ({ property: f.getProperty(), reason: f.getReason() })),
      };
    },

    async diff({ urn, id, olds, news, oldInputs, ignoreChanges }) {
      const request = withUrn(new provproto.DiffRequest(), urn);
      request.setId(id);
      request.setOlds(toStruct("diff", olds));
      request.setNews(toStruct("diff", news));
      request.setOldInputs(toStruct("diff", oldInputs ?? {}));
      request.setIgnorechangesList(ignoreChanges ?? []);
      const response = await call<provproto.DiffResponse>("diff", (cb) => client.diff(request, cb));
      const changes = response.getChanges();
      const { DiffChanges } = provproto.DiffResponse;
      return {
        changes:
          changes === DiffChanges.DIFF_SOME ? "some" : changes === DiffChanges.DIFF_NONE ? "none" : "unknown",
        replaces: response.getReplacesList(),
        stables: response.getStablesList(),
        deleteBeforeReplace: response.getDeletebeforereplace(),
      };
    },

    async create({ urn, properties, preview }) {
      const request = withUrn(new provproto.CreateRequest(), urn);
      request.setProperties(toStruct("create", properties));
      request.setPreview(preview ?? false);
      const response = await call<provproto.CreateResponse>("create", (cb) => client.create(request, cb));
      return { id: response.getId(), properties: fromStruct(response.getProperties()) };
    },

    async read({ urn, id, properties, inputs }) {
      const request = withUrn(new provproto.ReadRequest(), urn);
      request.setId(id);
      request.setProperties(toStruct("read", properties));
      request.setInputs(toStruct("read", inputs ?? {}));
      const response = await call<provproto.ReadResponse>("read", (cb) => client.read(request, cb));
      const returnedInputs = response.getInputs();
      return {
        id: response.getId(),
        properties: fromStruct(response.getProperties()),
        ...(returnedInputs ? { inputs: fromStruct(returnedInputs) } : {}),
      };
    },

    async update({ urn, id, olds, news, oldInputs, preview }) {
      const request = withUrn(new provproto.UpdateRequest(), urn);
      request.setId(id);
      request.setOlds(toStruct("update", olds));
      request.setNews(toStruct("update", news));
      request.setOldInputs(toStruct("update", oldInputs ?? {}));
      request.setPreview(preview ?? false);
      const response = await call<provproto.UpdateResponse>("update", (cb) => client.update(request, cb));
      return fromStruct(response.getProperties());
    },

    async delete({ urn, id, properties, oldInputs }) {
      const request = withUrn(new provproto.DeleteRequest(), urn);
      request.setId(id);
      request.setProperties(toStruct("delete", properties));
      request.setOldInputs(toStruct("delete", oldInputs ?? {}));
      await call("delete", (cb) => client.delete(request, cb));
    },

    close: stop,

    stderr: () => stderr,
    logs: () => [...engine.logs],
    stdout: () => stdout,
  };
}
