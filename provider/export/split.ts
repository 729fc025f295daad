/**
 * The split export (`--split`): one organization as several small programs, each its own stack, instead of one
 * large one (a stack's cost grows faster than its size; several small stacks run side by side). Pure: the
 * model read once is divided into one model per program, each planned and rendered like a whole export.
 *
 * Where each object goes (every object the whole export declares goes to exactly one program):
 * - a region is a group at the split depth (1: the top-level groups) with its subtree: its groups, the
 *   release channels, experiences and devices placed on them, and the users whose group roles are all in it
 *   (roles on the shared groups above it too);
 * - the shared program holds what the whole organization shares: the groups above the split depth, users
 *   with no group role in a region, custom themes, tags and the tags of apps, files and videos, uploaded
 *   content, channel versions, and ungrouped devices with their channels, experiences and content;
 * - the cross-region program holds the users with group roles in more than one region: it runs after them.
 * A program finds what another declares by lookup (`get…Output` by name), which works on every backend;
 * the order (shared, then the regions side by side, then cross-region) makes sure it exists by then.
 */
import { ExportOptionError } from "./errors";
import { groupTree, groupsNotFindableByName, type OrgModel, type TreeGroup } from "./model";
import { slugify } from "./names";

/** When a program runs: the regions only after the shared program, cross-region users after the regions. */
export type SplitStage = "shared" | "region" | "cross-region";

export interface SplitProgram {
  /** Folder name and suffix of the project name: `shared`, the region's slug, `cross-region`. */
  folder: string;
  stage: SplitStage;
  /** How a person names it: "shared", the region's path. */
  label: string;
  model: OrgModel;
}

export const SHARED_FOLDER = "shared";
export const CROSS_REGION_FOLDER = "cross-region";

/** Where an object goes: the shared program, or a region by its group's id. */
type Home = { shared: true } | { regionId: string };

export function splitModel(model: OrgModel, depth: number): SplitProgram[] {
  if (!Number.isInteger(depth) || depth < 1) {
    throw new ExportOptionError(
      `--split-depth ${depth}: give a whole number from 1 (the top-level groups are the regions).`,
      "--split-depth",
      "give 1 for the top-level groups, 2 for their children, …",
    );
  }
  const tree = groupTree(model.groups);
  const byId = new Map(tree.map((g) => [g.id, g]));
  const regions = tree.filter((g) => g.path.length === depth);
  const regionOf = (groupId: string): string | undefined => {
    let g: TreeGroup | undefined = byId.get(groupId);
    while (g && g.path.length > depth) g = g.parentId ? byId.get(g.parentId) : undefined;
    return g && g.path.length === depth ? g.id : undefined;
  };
  const homeOf = (groupId: string | null): Home => {
    const region = groupId === null ? undefined : regionOf(groupId);
    return region ? { regionId: region } : { shared: true };
  };
  // A region finds the shared groups above it by name under their parent: that must single each one out.
  const unfindable = groupsNotFindableByName(tree);
  const ambiguous = tree.filter((g) => g.path.length < depth && unfindable.has(g.id));
  if (ambiguous.length && regions.length) {
    throw new ExportOptionError(
      `--split-depth ${depth}: the regions find the groups above them by name, and group ` +
        `"${ambiguous[0].path.join(" > ")}" has a same-named sibling on its path: give a smaller --split-depth, ` +
        "or rename one of the same-named groups.",
      "--split-depth",
      "give a smaller --split-depth, or rename one of the same-named groups",
    );
  }

  const inHome = (home: Home, target: Home) =>
    "shared" in home ? "shared" in target : "regionId" in target && target.regionId === home.regionId;
  // A user goes to the one region its group roles reach; none: shared; several: cross-region.
  const userHome = (user: OrgModel["users"][number]): Home | "cross-region" => {
    const reached = new Set(user.groupRoles.flatMap((r) => regionOf(r.groupId) ?? []));
    if (reached.size > 1) return "cross-region";
    return reached.size ? { regionId: [...reached][0] } : { shared: true };
  };

  const partOf = (home: Home): OrgModel => {
    const shared = "shared" in home;
    const groupHome = (groupId: string) => inHome(homeOf(groupId), home);
    return {
      ...model,
      declaredGroups: tree.filter((g) => groupHome(g.id)).map((g) => g.id),
      users: model.users.filter((u) => {
        const target = userHome(u);
        return target !== "cross-region" && inHome(target, home);
      }),
      groupChannels: model.groupChannels.filter((a) => groupHome(a.groupId)),
      deviceChannels: shared ? model.deviceChannels : [],
      themes: shared ? model.themes : [],
      experiences: model.experiences?.filter((x) =>
        "groupId" in x.owner ? groupHome(x.owner.groupId) : shared,
      ),
      tags: shared ? model.tags : [],
      tagSets: shared ? model.tagSets : [],
      deviceContent: shared ? model.deviceContent : [],
      placedDevices: model.placedDevices?.filter((d) => inHome(homeOf(d.groupId), home)),
      channelVersions: shared ? model.channelVersions : [],
      uploaded: shared ? model.uploaded : [],
      // What the export leaves out is the organization's: said once, in the shared program's README.
      leftOut: shared ? model.leftOut : [],
    };
  };

  const programs: SplitProgram[] = [
    { folder: SHARED_FOLDER, stage: "shared", label: "shared", model: partOf({ shared: true }) },
  ];
  const folders = new Set([SHARED_FOLDER, CROSS_REGION_FOLDER]);
  for (const region of regions) {
    // Folder names are unique: a region whose slug is taken gets its parent's slug, then a number.
    const own = slugify(region.path.join(" ")) || "region";
    let folder = own;
    for (let n = 2; folders.has(folder); n++) folder = `${own}-${n}`;
    folders.add(folder);
    programs.push({
      folder,
      stage: "region",
      label: region.path.join(" > "),
      model: partOf({ regionId: region.id }),
    });
  }

  const crossRegion = model.users.filter((u) => userHome(u) === "cross-region");
  if (crossRegion.length) {
    // These find every group by name: a role on a group no lookup singles out cannot be declared here.
    const leftOut: string[] = [];
    const users = crossRegion.filter((u) => {
      const blocked = u.groupRoles.find((r) => unfindable.has(r.groupId));
      if (blocked) {
        leftOut.push(
          `User ${u.email} (group roles in several regions): group "${byId.get(blocked.groupId)!.path.join(" > ")}" ` +
            "has a same-named sibling on its path, so the cross-region program cannot look it up by name; " +
            "declare this user in one program by hand.",
        );
      }
      return !blocked;
    });
    programs.push({
      folder: CROSS_REGION_FOLDER,
      stage: "cross-region",
      label: "users with group roles in several regions",
      model: {
        ...model,
        declaredGroups: [],
        users,
        groupChannels: [],
        deviceChannels: [],
        themes: [],
        experiences: [],
        tags: [],
        tagSets: [],
        deviceContent: [],
        placedDevices: [],
        channelVersions: [],
        uploaded: [],
        leftOut,
      },
    });
  }
  return programs;
}
