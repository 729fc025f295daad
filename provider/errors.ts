/**
 * The errors a user can act on, as classes with fields: which resource kind, which property or setting, and
 * the fix. A program or a test tells them apart by class and field, not by message text; the message is the
 * full sentence the user reads in `pulumi preview`/`up` (the engine carries only the text across the plugin).
 *
 * Errors of the API itself (status, request id) are the client's (`provider/client/errors.ts`).
 */

export interface ProblemDetails {
  /** The resource kind concerned, as users name it ("Group"), when one is. */
  kind?: string;
  /** The property or setting to change ("configured", "devicemgmt:apiToken"), when one is. */
  property?: string;
  /** What to do about it, in a few words. */
  fix: string;
}

/** The base of every actionable provider error. */
export class DeviceMgmtProblem extends Error {
  readonly kind?: string;
  readonly property?: string;
  readonly fix: string;

  constructor(message: string, details: ProblemDetails) {
    super(message);
    this.name = new.target.name;
    if (details.kind !== undefined) this.kind = details.kind;
    if (details.property !== undefined) this.property = details.property;
    this.fix = details.fix;
  }
}

/** A setting of the connection (stack config, environment, a resource's `connection`) is missing or invalid. */
export class ConnectionSettingError extends DeviceMgmtProblem {}

/**
 * A create met an object it did not make (a same-named sibling group, a user's e-mail, an attachment in place).
 * Nothing was changed; `existingId` is what `adoptId` would take over.
 */
export class NotCreatedHereError extends DeviceMgmtProblem {
  constructor(
    message: string,
    readonly existingId: string,
  ) {
    super(message, {
      property: "adoptId",
      fix: `aliases, if renamed or moved in code; or adoptId: "${existingId}"`,
    });
  }
}

/**
 * A second resource of the run declares an object another resource of the run already holds (one live object,
 * one resource: `framework/claims.ts`). Nothing was written for `claimant`.
 */
export class DuplicateClaimError extends DeviceMgmtProblem {
  constructor(
    kind: string,
    property: string,
    /** What the object is, in words ("the custom theme "Brand""). */
    readonly object: string,
    /** The resource that was refused. */
    readonly claimant: string,
    /** The resource that holds the object. */
    readonly holder: string,
  ) {
    super(
      `${kind} "${claimant}" declares ${object}, which ${kind} "${holder}" of this stack already declares. ` +
        `One live object can have one resource only, or each run would undo the other's values (and removing ` +
        `one declaration would delete what the other still declares). Nothing was changed for "${claimant}". ` +
        `Remove the declaration of "${claimant}" (to keep its values instead, give them to "${holder}", or ` +
        `remove "${holder}" and add the resource option aliases: [{ name: "${holder}" }] to "${claimant}"), or ` +
        `change ${property} so that the two name different objects.`,
      { kind, property, fix: `remove "${claimant}", or change ${property}` },
    );
  }
}

/** `adoptId` names nothing that can be adopted (no such object, another e-mail, not attached). */
export class AdoptionError extends DeviceMgmtProblem {
  constructor(
    message: string,
    readonly adoptId: string,
    kind?: string,
  ) {
    super(message, {
      kind,
      property: "adoptId",
      fix: "correct adoptId, or remove it to create a new object",
    });
  }
}

/** The object a resource records is gone from the organization; refresh forgets it, and `up` makes it again. */
export class ObjectGoneError extends DeviceMgmtProblem {
  constructor(
    message: string,
    kind: string,
    readonly id: string,
  ) {
    super(message, { kind, fix: "pulumi refresh, then pulumi up" });
  }
}

/** The declaration asks for something the API cannot do to this object (undo configuring, attach to a grouped device). */
export class NotPossibleError extends DeviceMgmtProblem {}

/**
 * A resource whose object has a natural key (an owner/attached pair, an e-mail) would be replaced, delete first,
 * because its `connection` now reaches another organization: the old object would be removed in the first
 * organization before anything is made in the other, and lost if that fails. Refused at preview instead.
 */
export class OrganizationMoveError extends DeviceMgmtProblem {
  constructor(kind: string) {
    super(
      `${kind}: connection now reaches another organization (or the provider could not ask the API, and the ` +
        `base URL changed). A ${kind} is replaced delete-first (it cannot exist twice in one organization), so ` +
        `the move would remove it in the first organization before making it in the other, and lose it if that ` +
        `fails. Nothing was changed. To move it, declare it under a new resource name with the new connection ` +
        `(Pulumi then creates it in the other organization before it deletes the old one); to keep it where it ` +
        `is, restore the previous connection.`,
      { kind, property: "connection", fix: "declare it under a new resource name with the new connection" },
    );
  }
}

/** A recorded id is not of the shape its kind uses (state edited by hand, or another kind's id). */
export class MalformedIdError extends DeviceMgmtProblem {
  constructor(
    message: string,
    kind: string,
    readonly id: string,
  ) {
    super(message, { kind, fix: "correct the id in state, or remove the resource from state" });
  }
}

/**
 * A lookup (`getGroup`, `getRole`, ...) found no match, or more than one. `what` is what was looked for
 * (`role named "Admin"`), `found` describes each match (ids, so several can be told apart), `available` the
 * names there are when nothing matched, `reason` the API's answer when it said why.
 */
export class LookupError extends DeviceMgmtProblem {
  readonly what: string;
  readonly found: string[];
  readonly available: string[];
  readonly matches: number;

  constructor(details: { what: string; found?: string[]; available?: string[]; reason?: string }) {
    const { what, found = [], available = [], reason } = details;
    const quoted = available.map((v) => `"${v}"`).join(", ");
    super(
      found.length === 0
        ? `No ${what}${reason === undefined ? "" : ` (${reason})`}.${available.length ? ` Available: ${quoted}.` : ""}`
        : `More than one ${what}: ${found.join("; ")}. Narrow the lookup (e.g. by id).`,
      { fix: found.length === 0 ? "correct the lookup's arguments" : "narrow the lookup (e.g. by id)" },
    );
    this.what = what;
    this.found = found;
    this.available = available;
    this.matches = found.length;
  }
}

/** State names a kind this version of the package does not know. */
export class UnknownKindError extends DeviceMgmtProblem {
  constructor(kind: string) {
    super(
      `This version of pulumi-devicemgmt does not know the resource kind "${kind}" recorded in state. ` +
        `Install the version that created it (or newer).`,
      { kind, fix: "install the version that created it, or newer" },
    );
  }
}

/**
 * A lookup was called with arguments it cannot take (an unknown key, an id that is not a UUID, an empty name).
 * Refused before any request; `argument` names the argument when one is at fault, `usage` how to call it.
 */
export class LookupArgumentError extends DeviceMgmtProblem {
  constructor(
    readonly lookup: string,
    argument: string | undefined,
    problem: string,
    readonly usage: string,
  ) {
    super(`${lookup}: ${problem} Usage: ${usage}.`, {
      ...(argument !== undefined ? { property: argument } : {}),
      fix: `call it as ${usage}`,
    });
  }
}
