/**
 * Folds a V8 CPU profile (`node --cpu-prof`'s `.cpuprofile`, or `inspector`'s `Profiler.stop`) into time per
 * module: which share of a process's CPU is this package's, which the Pulumi SDK's, which gRPC's and protobuf's.
 * Pure: the profile in, the totals out (unit-tested in cpuProfile.test.ts).
 */

/** The parts of a `.cpuprofile` this reads (the Chrome DevTools protocol's `Profiler.Profile`). */
export interface CpuProfile {
  nodes: Array<{
    id: number;
    callFrame: { functionName: string; url: string; lineNumber: number };
    children?: number[];
  }>;
  samples?: number[];
  /** Microseconds between a sample and the one before it (the first: since the profile's start). */
  timeDeltas?: number[];
}

/** Where a frame's code comes from, by its script's URL. */
export function moduleOf(url: string, functionName: string): string {
  if (url === "") {
    // V8's own pseudo-frames: "(garbage collector)", "(program)" (native code outside JS), "(idle)", "(root)".
    return functionName.startsWith("(") ? functionName : "node (native)";
  }
  if (url.startsWith("node:")) return "node (internal)";
  const path = url.replace(/^file:\/\//, "");
  const pulumi = path.match(/\/node_modules\/@pulumi\/pulumi\/(automation\/)?/);
  // The Automation API drives the CLI and reads its event log: the harness's, not the program's.
  if (pulumi) return pulumi[1] ? "@pulumi/pulumi automation" : "@pulumi/pulumi";
  if (/\/node_modules\/(@grpc\/|google-protobuf\/|protobufjs\/|@protobufjs\/)/.test(path))
    return "grpc/protobuf";
  const dependency = path.match(/.*\/node_modules\/((?:@[^/]+\/)?[^/]+)\//);
  if (dependency) return dependency[1];
  if (/\/provider\//.test(path)) return "pulumi-devicemgmt";
  if (/\/test\//.test(path)) return "bench harness";
  return "other";
}

export interface ModuleTime {
  module: string;
  /** Milliseconds spent in the module's own frames. */
  selfMs: number;
  /** Milliseconds with a frame of the module anywhere on the stack (each sample counted once per module). */
  totalMs: number;
}

export interface FunctionTime {
  module: string;
  /** `name url:line` */
  frame: string;
  selfMs: number;
}

export interface ProfileFold {
  /** Milliseconds of all samples. */
  sampledMs: number;
  /** By self time, largest first. */
  modules: ModuleTime[];
  /** The frames with the most self time, largest first. */
  functions: FunctionTime[];
}

/** Self and total time per module, and the heaviest frames, of a profile. */
export function foldProfile(profile: CpuProfile, topFunctions = 20): ProfileFold {
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  const selfUs = new Map<number, number>();
  const samples = profile.samples ?? [];
  const deltas = profile.timeDeltas ?? [];
  // A sample's time is the gap to the next one (the last sample gets the mean), as DevTools counts it.
  const mean = deltas.length > 1 ? deltas.slice(1).reduce((a, b) => a + b, 0) / (deltas.length - 1) : 0;
  samples.forEach((id, i) => {
    const us = i + 1 < deltas.length ? deltas[i + 1] : mean;
    selfUs.set(id, (selfUs.get(id) ?? 0) + Math.max(0, us));
  });

  const self = new Map<string, number>();
  const total = new Map<string, number>();
  const frames = new Map<string, FunctionTime>();
  const childIds = new Set(profile.nodes.flatMap((node) => node.children ?? []));
  // Depth first from the roots, with how many frames of each module are on the stack above.
  const stack: Array<{ id: number; onStack: Map<string, number> }> = profile.nodes
    .filter((node) => !childIds.has(node.id))
    .map((node) => ({ id: node.id, onStack: new Map() }));
  while (stack.length > 0) {
    const { id, onStack } = stack.pop()!;
    const node = byId.get(id);
    if (!node) continue;
    const module = moduleOf(node.callFrame.url, node.callFrame.functionName);
    // The root holds every sample: counting it would say nothing.
    const here = module === "(root)" ? onStack : new Map(onStack).set(module, (onStack.get(module) ?? 0) + 1);
    const us = selfUs.get(id) ?? 0;
    if (us > 0) {
      self.set(module, (self.get(module) ?? 0) + us);
      for (const m of here.keys()) total.set(m, (total.get(m) ?? 0) + us);
      const { functionName, url, lineNumber } = node.callFrame;
      const frame = `${functionName || "(anonymous)"} ${url.replace(/^.*\/node_modules\//, "")}:${lineNumber + 1}`;
      const entry = frames.get(frame) ?? { module, frame, selfMs: 0 };
      entry.selfMs += us / 1000;
      frames.set(frame, entry);
    }
    for (const child of node.children ?? []) stack.push({ id: child, onStack: here });
  }

  const modules = [...total.keys()]
    .map((module) => ({ module, selfMs: (self.get(module) ?? 0) / 1000, totalMs: total.get(module)! / 1000 }))
    .sort((a, b) => b.selfMs - a.selfMs || b.totalMs - a.totalMs);
  const functions = [...frames.values()].sort((a, b) => b.selfMs - a.selfMs).slice(0, topFunctions);
  const sampledMs = [...selfUs.values()].reduce((a, b) => a + b, 0) / 1000;
  return { sampledMs, modules, functions };
}
