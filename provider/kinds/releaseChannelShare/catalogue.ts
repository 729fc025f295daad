/** The ReleaseChannelShare kind's catalogue check: the organization it shares with, by slug. */
import { type Props, clientOf, known, look, type Failure } from "../../framework";

const SLUG = /^[a-z0-9][a-z0-9-]*$/;

/**
 * `organizationSlug` of a share, when new: of a slug's form (as `DeviceMigration` requires), and not the
 * token's own organization (the API refuses sharing with it). The API has no list of other organizations, so a
 * well-formed slug of no organization is still only refused at `up`, with the server's reason.
 */
export async function shareSlugFailures(inputs: Props, olds: Props): Promise<Failure[]> {
  const slug = inputs.organizationSlug;
  if (!known(slug) || slug === olds.organizationSlug) return [];
  if (!SLUG.test(slug)) {
    const lower = slug.toLowerCase();
    return [
      {
        property: "organizationSlug",
        reason: SLUG.test(lower)
          ? `organizationSlug: "${slug}" is not a slug; slugs are lower-case: use "${lower}".`
          : `organizationSlug: "${slug}" is not a slug (lower-case letters, digits and -, such as acme-staging).`,
      },
    ];
  }
  const client = clientOf(inputs);
  if (client === undefined) return [];
  const own = await look(() => client.currentOrganization());
  return own && own.slug === slug
    ? [
        {
          property: "organizationSlug",
          reason:
            `organizationSlug: "${slug}" is this organization's own slug, and a channel is shared with another ` +
            `organization: give the other organization's slug.`,
        },
      ]
    : [];
}
