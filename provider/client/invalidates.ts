/**
 * What a write makes stale. Every write operation declares it beside its method and path (operations.ts and the
 * other operation files), and the client announces it to its write listeners (`DeviceMgmtClient.onWrite`), so a
 * cache above the client learns what to drop without parsing paths.
 */

/**
 * The lists the provider keeps between reads (provider/framework/coalescedReads.ts): every user, every group,
 * and one group's or one device's release channels (which channels are attached, not the channels' contents).
 */
export type CachedList = "users" | "groups" | "groupReleaseChannels" | "deviceReleaseChannels";

/** A cached list a write may change: the whole kind, or only the list of one owner (`ownerId`). */
export interface CachedListScope {
  kind: CachedList;
  ownerId?: string;
}

/**
 * What one write may make stale: `[]` for a write that changes nothing cached. A required argument of
 * `Executor.write`, so a new write route that does not say is a compile error, never a silent "everything".
 */
export type Invalidates = readonly CachedListScope[];

/** The options of a POST that sets a state (an experience's configure, an unshare): retried like a PUT. */
export const REPEATABLE = { repeatable: true } as const;

/**
 * The options of an upload's initiate (a file, a video, an image, a 3D environment, an app build): it opens an
 * upload session and makes no object (the object exists once the upload's complete has answered), so sending it
 * again after a lost answer or a 5xx leaves at most a session nobody completes, as a killed run leaves. Failing
 * instead would stop the whole `up` at one lost answer. Not for a file uploaded into a bundle: an upload left
 * open there keeps the bundle from being finalized.
 */
export const UPLOAD_INITIATE = REPEATABLE;

export const INVALIDATES_NOTHING: Invalidates = [];

/** A write as the client's write listeners see it: once when it is sent, once when it settled. */
export interface WriteNotice {
  method: string;
  /** Below the v3 base URL, e.g. "/groups/{id}" with the id escaped. */
  path: string;
  invalidates: Invalidates;
  /** False when it is about to be sent, true once answered or failed (retries happen in between). */
  settled: boolean;
}
