/**
 * The export command's own refusals: what it read cannot be written as a program, or its options contradict
 * each other. Classes under DeviceMgmtProblem like the provider's, kept here as only the command throws them.
 */
import { DeviceMgmtProblem } from "../errors";

/**
 * The group tree an export read cannot be written as a program: a parent the token cannot see, or parents
 * that form a loop. `groupIds` are the groups concerned.
 */
export class UnexportableTreeError extends DeviceMgmtProblem {
  constructor(
    message: string,
    readonly groupIds: string[],
    fix: string,
  ) {
    super(message, { kind: "Group", fix });
  }
}

/** An export option contradicts another or the organizations it reads (`property` is the option, e.g. a flag). */
export class ExportOptionError extends DeviceMgmtProblem {
  constructor(message: string, property: string, fix: string) {
    super(message, { property, fix });
  }
}

/** The package's own package.json was not found above `searchedFrom` (a broken or partial installation). */
export class PackageNotFoundError extends DeviceMgmtProblem {
  constructor(readonly searchedFrom: string) {
    super(`The pulumi-devicemgmt package.json was not found above ${searchedFrom}.`, {
      fix: "reinstall pulumi-devicemgmt",
    });
  }
}

/** A content file name that would leave the export's content folder (the API named it; never written). */
export class UnsafeContentPathError extends DeviceMgmtProblem {
  constructor(readonly source: string) {
    super(
      `The content path ${source} leads outside the export's content folder; nothing was written there.`,
      {
        property: "source",
        fix: "report this export: content names are made safe before they are written",
      },
    );
  }
}
