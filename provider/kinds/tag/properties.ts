/**
 * The Tag kind's properties, declared once (framework/properties.ts), and what every tag name obeys: 1 to 255
 * characters, unique in the organization without regard to case (TagSet's names obey the same).
 */
import { z } from "zod";
import type { Tag as ApiTag } from "../../client";
import { carried, type PropertySpecs, type StateOf } from "../../framework/properties";

/** A tag name's schema; `what` names the property in the failure. */
export const tagName = (what: string) =>
  z
    .string({ error: `${what} must be a string` })
    .trim()
    .min(1, { error: `${what} must not be empty` })
    .max(255, { error: `${what} must be at most 255 characters` });

/** Two names of one tag: the API matches tag names without case. */
export const sameName = (a: string, b: string) => a.toLowerCase() === b.toLowerCase();

export const tagProperties = {
  name: { schema: tagName("name"), change: "update", fromLive: (live: ApiTag) => live.name },
  ...carried,
} satisfies PropertySpecs<ApiTag>;

export type TagProperties = typeof tagProperties;
export type TagState = StateOf<TagProperties>;
