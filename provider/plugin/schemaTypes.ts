/** The parts of a Pulumi package schema the plugin writes (https://www.pulumi.com/docs/iac/extending-pulumi/schema/). */

/** A type reference. */
export interface TypeSpec {
  type?: "string" | "number" | "integer" | "boolean" | "array" | "object";
  items?: TypeSpec;
  additionalProperties?: TypeSpec;
  $ref?: string;
}

export interface PropertySpecJson extends TypeSpec {
  description?: string;
  secret?: boolean;
  replaceOnChanges?: boolean;
}

export interface ObjectTypeSpec {
  type: "object";
  description?: string;
  properties: Record<string, PropertySpecJson>;
  required?: string[];
}

export interface ResourceSpec {
  description?: string;
  inputProperties: Record<string, PropertySpecJson>;
  requiredInputs: string[];
  properties: Record<string, PropertySpecJson>;
  required: string[];
}

export interface FunctionSpec {
  description: string;
  inputs?: ObjectTypeSpec;
  outputs: ObjectTypeSpec;
}

export interface PackageSchema {
  name: string;
  displayName: string;
  version: string;
  description: string;
  keywords: string[];
  license: string;
  repository: string;
  publisher: string;
  config: { variables: Record<string, PropertySpecJson> };
  provider: { description: string; inputProperties: Record<string, PropertySpecJson> };
  types: Record<string, ObjectTypeSpec>;
  resources: Record<string, ResourceSpec>;
  functions: Record<string, FunctionSpec>;
  language: Record<string, Record<string, unknown>>;
}
