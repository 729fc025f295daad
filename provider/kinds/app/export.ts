/**
 * The exporter writes no App. An app is content: what makes it useful (its builds, icon and package name) comes
 * from uploads the exporter cannot reproduce yet, and the generated program finds release channels, experience
 * content and app tags by app name. Declared in a staging stack without `adoptId`, each App would create an
 * empty second app of a name the organization already has, and every lookup by that name would then find two.
 */
import type { KindSection } from "../../export/layout";

export const appSection: KindSection = {
  notExported:
    "an app's builds come from uploads the exporter cannot reproduce yet, and the program finds release " +
    "channels and content by app name: an App created in staging beside an app of that name would make every " +
    "such lookup ambiguous",
};
