/** Comparing recorded outputs with new inputs: what changes in place, what replaces, and the connection. */
import type * as pulumi from "@pulumi/pulumi";
import { clientForProps, connectionOf } from "./context";
import { containsUnknown, type Props } from "./protocol";

/** The declared connection's organization: a change of base URL means another organization, so a replacement. */
export function connectionBaseUrl(props: Props): string | undefined {
  return connectionOf(props)?.baseUrl;
}

export interface PropertyDiffSpec {
  /** Properties that change in place. */
  updatable: string[];
  /** Properties whose change needs a new object. */
  replaceOn: string[];
  /** Per-property equality where plain equality would report a change that is not there. */
  equal?: Record<string, (a: unknown, b: unknown) => boolean>;
  /** Value used when a property is absent (so `parentId: undefined` equals `parentId: null`). */
  defaults?: Record<string, unknown>;
  /**
   * The object is identified by a natural key (an e-mail, an owner/channel pair) that cannot exist twice, so a
   * replacement must delete the old object before creating the new one.
   */
  naturalKey?: boolean;
}

/**
 * Pure: compares prior outputs with new inputs. Unknown new values count as changed.
 *
 * A changed `connection` replaces the object when it now points at another organization, and is otherwise an
 * in-place update (a new token must reach the recorded outputs: a later delete only sees those, and would
 * otherwise call with the old, perhaps revoked, token). `sameOrganization` is what the API said about that
 * (see `connectionStaysInOrganization`); without an answer a change of base URL counts as another organization.
 */
export function diffProperties(
  olds: Props,
  news: Props,
  spec: PropertyDiffSpec,
  sameOrganization?: boolean,
): pulumi.dynamic.DiffResult {
  const changed = (key: string): boolean => {
    const fallback = spec.defaults?.[key];
    const a = olds[key] ?? fallback;
    const b = news[key] ?? fallback;
    if (containsUnknown(b)) return true;
    const eq = spec.equal?.[key] ?? deepEqual;
    return !eq(a, b);
  };
  const replaces = spec.replaceOn.filter(changed);
  const updates = spec.updatable.filter(changed);
  const unknownConnection = containsUnknown(news.connection);
  if (unknownConnection || !deepEqual(olds.connection, news.connection)) {
    const otherOrganization =
      sameOrganization === undefined
        ? !unknownConnection && connectionBaseUrl(olds) !== connectionBaseUrl(news)
        : !sameOrganization;
    (otherOrganization ? replaces : updates).push("connection");
  }
  return {
    changes: replaces.length > 0 || updates.length > 0,
    replaces,
    deleteBeforeReplace: spec.naturalKey === true && replaces.length > 0,
  };
}

/**
 * Whether a changed `connection` still reaches the same organization, asked of the API (token info) for the
 * recorded and the declared connection — a token, not a URL, says which organization. undefined when the
 * connection did not change, is not known yet (preview), or either side cannot answer (e.g. the old token was
 * revoked, the usual reason to change it).
 */
export async function connectionStaysInOrganization(olds: Props, news: Props): Promise<boolean | undefined> {
  if (containsUnknown(news.connection) || deepEqual(olds.connection, news.connection)) return undefined;
  const organizationOf = async (props: Props) => {
    try {
      return (await clientForProps(props).assertV3Token()).organization_id;
    } catch {
      return undefined;
    }
  };
  const [before, after] = await Promise.all([organizationOf(olds), organizationOf(news)]);
  return before && after ? before === after : undefined;
}

export function deepEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (Array.isArray(a) && Array.isArray(b))
    return a.length === b.length && a.every((v, i) => deepEqual(v, b[i]));
  if (a && b && typeof a === "object" && typeof b === "object" && !Array.isArray(a) && !Array.isArray(b)) {
    const ka = Object.keys(a).filter((k) => (a as Props)[k] !== undefined);
    const kb = Object.keys(b).filter((k) => (b as Props)[k] !== undefined);
    return ka.length === kb.length && ka.every((k) => deepEqual((a as Props)[k], (b as Props)[k]));
  }
  return false;
}
