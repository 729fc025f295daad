/** URNs as the engine builds them, and the alias URNs it derives from a registration's alias specs. */
import type * as aliasproto from "@pulumi/pulumi/proto/alias_pb";
import { ROOT_STACK_TYPE } from "./values";

/** `urn:pulumi:<stack>::<project>::<parent type>$<type>::<name>` (resource.CreateURN in the engine's sdk). */
export function createUrn(
  name: string,
  type: string,
  parent: string,
  project: string,
  stack: string,
): string {
  let qualifiedType = type;
  if (parent && qualifiedTypeOf(parent) !== ROOT_STACK_TYPE) {
    qualifiedType = `${qualifiedTypeOf(parent)}$${type}`;
  }
  return `urn:pulumi:${stack}::${project}::${qualifiedType}::${name}`;
}

export function qualifiedTypeOf(urn: string): string {
  return urn.split("::")[2] ?? "";
}

export function nameOf(urn: string): string {
  return urn.split("::").slice(3).join("::");
}

/**
 * The URNs a resource may have had before (pkg/resource/deploy/step_generator.go: generateAliases and
 * collapseAliasToUrn): an alias is a URN, or a spec whose missing parts default to the resource's own; a
 * parent that was itself found through an alias contributes its old URN.
 */
export function aliasUrns(
  specs: aliasproto.Alias[],
  resource: { name: string; type: string; parent: string },
  context: { project: string; stack: string; oldUrnOfParent(parent: string): string | undefined },
): string[] {
  const urns: string[] = [];
  const add = (urn: string) => {
    if (!urns.includes(urn)) urns.push(urn);
  };
  for (const alias of specs) {
    if (alias.hasUrn()) {
      add(alias.getUrn());
      continue;
    }
    const spec = alias.getSpec();
    if (!spec) continue;
    let parent = spec.getParenturn() || resource.parent;
    if (spec.getParenturn()) parent = context.oldUrnOfParent(parent) ?? parent;
    if (spec.getNoparent() || (parent && qualifiedTypeOf(parent) === ROOT_STACK_TYPE)) parent = "";
    add(
      createUrn(
        spec.getName() || resource.name,
        spec.getType() || resource.type,
        parent,
        spec.getProject() || context.project,
        spec.getStack() || context.stack,
      ),
    );
  }
  // A child inherits its parent's alias: its old URN is under the parent's old URN.
  const parentOld = resource.parent ? context.oldUrnOfParent(resource.parent) : undefined;
  if (parentOld) {
    const parentName = nameOf(resource.parent);
    const childName = resource.name.startsWith(parentName)
      ? nameOf(parentOld) + resource.name.slice(parentName.length)
      : resource.name;
    add(createUrn(childName, resource.type, parentOld, context.project, context.stack));
  }
  return urns;
}
