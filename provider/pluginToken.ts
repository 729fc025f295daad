/**
 * The type tokens of the provider plugin (provider/plugin), apart from the plugin itself: the drift report reads
 * plugin-typed resources from a state without loading the plugin's schema generator.
 */

/** The plugin's package name: its tokens, its configuration keys (`devicemgmt:baseUrl`) and its binary. */
export const PACKAGE = "devicemgmt";

/** The type token of a kind's resources through the plugin: `devicemgmt:index:<Type>`. */
export const resourceToken = (type: string) => `${PACKAGE}:index:${type}`;
