/**
 * The provider's configuration: `baseUrl`, `apiToken`, `requestsPerMinute` … as provider inputs (the stack's
 * `devicemgmt:*` config for the default provider, the arguments of an explicit one), checked by CheckConfig and
 * bound by Configure to what every handler and lookup of this plugin process reads.
 *
 * Why this module answers two RPCs itself: `@pulumi/pulumi/provider`'s server (3.270) answers Configure without
 * reading its arguments and leaves CheckConfig unimplemented, and its Provider interface has no configure. One
 * plugin process serves one provider instance (the engine starts one per instance), so the configuration is the
 * process's, as the dynamic provider's stack settings are (framework/context.ts).
 *
 * Configure also answers acceptSecrets: false, as the dynamic provider does: the engine then sends plain values
 * and marks each output secret whose input of the same name was, and the handlers see what they see from the
 * dynamic provider.
 */
import { createRequire } from "node:module";
import type * as grpc from "@grpc/grpc-js";
import * as pulumi from "@pulumi/pulumi";
import { stackSettingsFrom, type ConnectionInput, type StackSettings } from "../connection";
import { ConnectionSettingError } from "../errors";
import { bindStackSettings } from "../framework/context";
import { CONFIG_PROPERTIES } from "./schema";

type Values = Record<string, unknown>;

/** The SDK's own copies of grpc-js and the generated messages: the server `main` starts uses these. */
const sdkRequire = createRequire(require.resolve("@pulumi/pulumi"));
const grpcJs: typeof grpc = sdkRequire("@grpc/grpc-js");
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- generated protobuf classes, untyped here
const providerProto: any = sdkRequire("./proto/provider_pb");
// eslint-disable-next-line @typescript-eslint/no-explicit-any
const structProto: any = sdkRequire("google-protobuf/google/protobuf/struct_pb");

/** Keys the engine adds to a provider's inputs that are no setting of ours. */
const ENGINE_KEYS = new Set(["version", "pluginDownloadURL"]);

/** A value without the engine's secret wrappers (Configure receives them; the settings are plain). */
function unwrapped(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(unwrapped);
  if (value !== null && typeof value === "object") {
    const object = value as Values;
    if (object[pulumi.runtime.specialSigKey] === pulumi.runtime.specialSecretSig)
      return unwrapped(object.value);
    return Object.fromEntries(Object.entries(object).map(([k, v]) => [k, unwrapped(v)]));
  }
  return value;
}

/** The settings the inputs give, by connection.ts's rules (the same messages as for stack config). */
function settingsOf(inputs: Values): StackSettings {
  const plain = unwrapped(inputs) as Values;
  return stackSettingsFrom((key) => {
    const value = plain[key.replace(/^devicemgmt:/, "")];
    return value === undefined || value === null ? undefined : String(value);
  });
}

/** Why the inputs cannot configure the provider, one failure per property, each naming the fix. */
export function configurationFailures(inputs: Values): { property: string; reason: string }[] {
  const failures: { property: string; reason: string }[] = [];
  for (const key of Object.keys(inputs))
    if (!ENGINE_KEYS.has(key) && !key.startsWith("__") && !(CONFIG_PROPERTIES as string[]).includes(key))
      failures.push({
        property: key,
        reason: `${key} is not a setting of devicemgmt; the settings are ${CONFIG_PROPERTIES.join(", ")}.`,
      });
  try {
    settingsOf(inputs);
  } catch (error) {
    if (!(error instanceof ConnectionSettingError)) throw error;
    const property = (error.property ?? "").replace(/^devicemgmt:/, "");
    failures.push({ property, reason: error.message });
  }
  return failures;
}

/** The provider instance's configuration, as the handlers and lookups of this process use it. */
export class PluginConfiguration {
  private settings: StackSettings = {};

  configure(inputs: Values): void {
    this.settings = settingsOf(inputs);
    bindStackSettings(this.settings);
  }

  /** The connection a lookup uses: the configured base URL and token (the environment's where none is). */
  connection(): ConnectionInput {
    const { baseUrl, apiToken, allowInsecureHttp } = this.settings;
    return JSON.parse(JSON.stringify({ baseUrl, apiToken, allowInsecureHttp })) as ConnectionInput;
  }
}

/** The secret settings as the engine's secrets: a token given in plain text is still kept encrypted. */
function withSecretToken(inputs: Values): Values {
  const token = inputs.apiToken;
  if (token === undefined || token === null || typeof token === "object") return inputs;
  return {
    ...inputs,
    apiToken: { [pulumi.runtime.specialSigKey]: pulumi.runtime.specialSecretSig, value: token },
  };
}

type Callback = (error: unknown, response?: unknown) => void;
type Call = {
  request: { getArgs?(): { toJavaScript(): Values } | undefined; getNews?(): { toJavaScript(): Values } };
};

/** Configure and CheckConfig, as the provider server's methods of those names. */
function configurationMethods(configuration: PluginConfiguration) {
  return {
    configure(call: Call, callback: Callback) {
      try {
        configuration.configure(call.request.getArgs?.()?.toJavaScript() ?? {});
        const response = new providerProto.ConfigureResponse();
        response.setAcceptsecrets(false);
        response.setAcceptresources(false);
        response.setSupportspreview(false);
        callback(undefined, response);
      } catch (error) {
        callback(error);
      }
    },
    checkConfig(call: Call, callback: Callback) {
      try {
        const news = call.request.getNews?.().toJavaScript() ?? {};
        const response = new providerProto.CheckResponse();
        response.setInputs(structProto.Struct.fromJavaScript(withSecretToken(news)));
        response.setFailuresList(
          configurationFailures(news).map(({ property, reason }) => {
            const failure = new providerProto.CheckFailure();
            failure.setProperty(property);
            failure.setReason(reason);
            return failure;
          }),
        );
        callback(undefined, response);
      } catch (error) {
        callback(error);
      }
    },
  };
}

/**
 * Makes the next provider server started in this process (by `main`) answer Configure and CheckConfig with
 * `configuration`; every other method stays the SDK's.
 */
export function serveConfiguration(configuration: PluginConfiguration): void {
  const original = grpcJs.Server.prototype.addService;
  grpcJs.Server.prototype.addService = function (
    this: grpc.Server,
    service: grpc.ServiceDefinition,
    implementation: grpc.UntypedServiceImplementation,
  ) {
    if (!("configure" in service && "checkConfig" in service))
      return original.call(this, service, implementation);
    const methods = configurationMethods(configuration);
    const patched = Object.assign(Object.create(implementation) as object, methods);
    return original.call(this, service, patched as grpc.UntypedServiceImplementation);
  };
}
