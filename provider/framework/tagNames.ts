/**
 * Tag names while a run renames tags (issue #40). Owners (devices, groups, apps, files, videos) carry tags by
 * name, and a Tag's rename renames the tag on every owner at once. A TagSet or a Device that names its tags by
 * string has no dependency on the Tag, so the engine runs the two steps in either order, or at the same time.
 * Two things then went wrong, depending on that order:
 * - an owner's write read before the rename and sent after it misses: detaching the old name detaches nothing
 *   (or is refused as an unknown tag), and the renamed tag stays on the owner until the next `up`;
 * - a new name attached before the rename that gives it names no tag yet: the API creates a second tag of that
 *   name (or refuses it), and the rename then fails because the name is taken.
 *
 * So within the run: a tag's rename or delete is exclusive; an owner's read-then-write of its tags is shared
 * (owners do not meet each other, so they still run in parallel), and the two never overlap, whichever the
 * engine starts first. And a rename the Tag's diff announced and has not made yet is known to the owners'
 * writes: they attach that tag under its name now, and record it under the name it is about to get.
 */

/** A rename of one tag that this run's engine has planned (the Tag's diff) and not yet made. */
export interface TagRename {
  from: string;
  to: string;
}

/** One waiter for the hold: shared (an owner's tag writes) or exclusive (a tag's rename or delete). */
interface Waiter {
  exclusive: boolean;
  wake: () => void;
}

export class TagNames {
  private sharedHolders = 0;
  private exclusiveHeld = false;
  /** First come, first served: an exclusive waiter is not starved by a stream of shared ones. */
  private readonly waiting: Waiter[] = [];
  private readonly planned = new Map<string, TagRename>();

  /** The Tag `tagId` is to be renamed in this run (its diff said so). */
  announceRename(tagId: string, rename: TagRename): void {
    this.planned.set(tagId, rename);
  }

  /** The rename of `tagId` was made, or failed: owners now read the tag's name from the organization. */
  renameSettled(tagId: string): void {
    this.planned.delete(tagId);
  }

  /** The renames planned and not made yet: stable while a shared hold is held (they are made exclusively). */
  plannedRenames(): TagRename[] {
    return [...this.planned.values()];
  }

  /** Runs `work` (an owner's read and write of its tags) while no tag is being renamed or deleted. */
  shared<T>(work: () => Promise<T>): Promise<T> {
    return this.hold(false, work);
  }

  /** Runs `work` (a tag's rename or delete) while no owner is between reading and writing its tags. */
  exclusive<T>(work: () => Promise<T>): Promise<T> {
    return this.hold(true, work);
  }

  private async hold<T>(exclusive: boolean, work: () => Promise<T>): Promise<T> {
    await new Promise<void>((wake) => {
      this.waiting.push({ exclusive, wake });
      this.grant();
    });
    try {
      return await work();
    } finally {
      if (exclusive) this.exclusiveHeld = false;
      else this.sharedHolders--;
      this.grant();
    }
  }

  /** Wakes waiters in order while the head can go: shared ones together, an exclusive one alone. */
  private grant(): void {
    while (this.waiting.length > 0 && !this.exclusiveHeld) {
      const next = this.waiting[0];
      if (next.exclusive) {
        if (this.sharedHolders > 0) return;
        this.exclusiveHeld = true;
      } else this.sharedHolders++;
      this.waiting.shift();
      next.wake();
    }
  }
}
