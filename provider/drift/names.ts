/**
 * The names the organization gives the ids a report shows: each finding says which lists name its ids
 * (`IdReference`), and each list the findings need is read once (LiveOrganization keeps what it read, so a list a
 * kind's comparison read already costs nothing more). An id no list names (gone, or of a kind the API cannot list:
 * an unmanaged app, a WebXR link) stays as it is.
 */
import { NotFoundError, ValidationError } from "../client";
import { groupPaths, type IdReference, type NameSource } from "./driftKind";
import type { LiveOrganization } from "./live";

/** Names by lowercased id, as the report puts them beside the id (in double quotes, which `rename` makes single). */
export async function namesOf(
  org: LiveOrganization,
  references: Iterable<IdReference>,
): Promise<Map<string, string>> {
  const sources = new Map<string, NameSource>();
  for (const { from } of references) sources.set(JSON.stringify(from), from);
  const lists = await Promise.all(
    [...sources.values()].map((source) =>
      namedIn(org, source).catch((error: unknown) => {
        // The builds or bundles of an app that is gone, or of an app id a state holds that is none (422): no
        // names, and no reason to fail the report.
        if (error instanceof NotFoundError || error instanceof ValidationError) return [];
        throw error;
      }),
    ),
  );
  return new Map(lists.flat().map(([id, name]) => [id.toLowerCase(), name]));
}

const quoted = (name: string) => `"${name}"`;

/** Each id of the list with its name; an object without a name is left out. */
async function namedIn(org: LiveOrganization, source: NameSource): Promise<Array<[string, string]>> {
  const named = <T extends { id: string }>(items: T[], name: (item: T) => string | null | undefined) =>
    items.flatMap((item): Array<[string, string]> => {
      const found = name(item);
      return found ? [[item.id, quoted(found)]] : [];
    });
  switch (source.list) {
    case "roles":
      return named(await org.roles(), (r) => r.name);
    case "groups":
      return [...groupPaths(await org.groups())].map(([id, path]) => [id, quoted(path)]);
    case "devices":
      return (await org.devices()).map((d) => [d.id, `${quoted(d.name)} (${d.serialNumber})`]);
    case "releaseChannels":
      return named(await org.releaseChannels(), (rc) => `${rc.app.name} / ${rc.name}`);
    case "apps":
      return named(await org.apps(), (a) => a.name);
    case "files":
      return named(await org.files(), (f) => f.filename);
    case "videos":
      return named(await org.videos(), (v) => v.name);
    case "themes":
      return named(await org.themes(), (t) => t.name);
    case "custom3DEnvironments":
      return named(await org.custom3DEnvironments(), (e) => e.objectName);
    case "images":
      return named(await org.images(source.type), (i) => i.originalFileName ?? i.objectName);
    case "builds":
      return named(await org.appVersions(source.appId), (b) => b.version);
    case "bundles":
      return named(await org.appBundlesOf(source.appId), (b) => b.label);
  }
}

/** Puts names beside the ids in a value's JSON text or a label (`<id> '<name>'`). */
export function rename(textValue: string, names: Map<string, string>): string {
  return textValue.replace(/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/gi, (id) => {
    const name = names.get(id.toLowerCase());
    return name === undefined ? id : `${id} ${name.replace(/"/g, "'")}`;
  });
}
