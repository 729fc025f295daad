/**
 * What the exporter is told besides the plan. Its own module because both the file renderer (render.ts) and the
 * program it calls (program.ts) read it: declared in render.ts, it made them an import cycle.
 */
import type { SplitProgram } from "./split";
import type { StagingMatch } from "./staging";

/** A program of a split export (`--split`, split.ts): which one this is, among which. */
export interface SplitRender {
  program: Pick<SplitProgram, "folder" | "stage" | "label">;
  programs: Pick<SplitProgram, "folder" | "stage" | "label">[];
}

export interface RenderOptions {
  /** Pulumi project name (also the namespace of the `adopt` config key). */
  project: string;
  /** The stack whose config file holds the adoption ids (the source organization's stack). */
  stack: string;
  /** The source organization's API base URL, written to the stack config; no token is ever written. */
  baseUrl?: string;
  /** The target organization read for a staging stack (`--match-base-url`): its config file and README part. */
  staging?: StagingMatch;
  /** Set when this program is one of a split export's: its README says where it stands in the run order. */
  split?: SplitRender;
  /** Version specs for the generated package.json (`provider` may be a `file:` path to a checkout). */
  versions: {
    pulumi: string;
    provider: string;
    typescript: string;
    tsNode: string;
    typesNode: string;
  };
}
