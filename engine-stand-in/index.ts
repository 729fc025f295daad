/** The engine stand-in: runs Pulumi programs of dynamic resources as the Pulumi CLI would (see README.md). */
export { createEngine, Engine, DEFAULT_PARALLELISM, UNKNOWN } from "./engine";
export type * from "./types";
export { observePlugins, type PluginObserver } from "./plugin";
