/**
 * What a checkpoint holds per resource, split by who put it there: the dynamic provider's serialized code
 * (`__provider`, in the inputs and again in the outputs), the registration's stack trace (`sourcePosition` and
 * `stackTrace`, which the SDK sends and the CLI stores), the program's inputs and the provider's outputs (without
 * `__provider`), and the rest of the engine's own fields (URN, type, id, parent, provider reference,
 * dependencies, property dependencies, timestamps, and the JSON around them). Bytes of compact UTF-8 JSON,
 * averaged over the stack's resources (the program's custom resources: not the stack, not the providers), so
 * the parts add up to the total.
 */
import { isEngineResource } from "../engine/events";

export interface StateSize {
  /** The resources averaged over. */
  resources: number;
  total: number;
  provider: number;
  stackTrace: number;
  inputs: number;
  outputs: number;
  engine: number;
}

type Properties = Record<string, unknown> | undefined;

interface StateResource {
  urn: string;
  type: string;
  custom: boolean;
  inputs?: Properties;
  outputs?: Properties;
}

const bytes = (value: unknown) => Buffer.byteLength(JSON.stringify(value) ?? "", "utf8");

const withoutProvider = (properties: Properties) => {
  if (!properties) return properties;
  const { __provider: _provider, ...rest } = properties;
  return rest;
};

/** Bytes per resource of each part; all zero for a state without resources. */
export function stateSizePerResource(resources: readonly StateResource[]): StateSize {
  const measured = resources.filter((r) => r.custom && !isEngineResource(r.type));
  const sum = { total: 0, provider: 0, stackTrace: 0, inputs: 0, outputs: 0, engine: 0 };
  for (const resource of measured) {
    const total = bytes(resource);
    const noProvider = {
      ...resource,
      inputs: withoutProvider(resource.inputs),
      outputs: withoutProvider(resource.outputs),
    };
    const {
      sourcePosition: _position,
      stackTrace: _trace,
      ...noTrace
    } = noProvider as typeof noProvider & {
      sourcePosition?: unknown;
      stackTrace?: unknown;
    };
    const inputs = bytes(noProvider.inputs ?? {});
    const outputs = bytes(noProvider.outputs ?? {});
    sum.total += total;
    sum.provider += total - bytes(noProvider);
    sum.stackTrace += bytes(noProvider) - bytes(noTrace);
    sum.inputs += inputs;
    sum.outputs += outputs;
    sum.engine += bytes(noTrace) - inputs - outputs;
  }
  const n = measured.length;
  const per = (value: number) => (n > 0 ? value / n : 0);
  return {
    resources: n,
    total: per(sum.total),
    provider: per(sum.provider),
    stackTrace: per(sum.stackTrace),
    inputs: per(sum.inputs),
    outputs: per(sum.outputs),
    engine: per(sum.engine),
  };
}
