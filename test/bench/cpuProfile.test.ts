import { foldProfile, moduleOf, type CpuProfile } from "./cpuProfile";

const frame = (functionName: string, url: string, lineNumber = 0) => ({ functionName, url, lineNumber });

describe("moduleOf", () => {
  it("names this package, the SDK, its Automation API, gRPC and protobuf, node and V8", () => {
    expect(moduleOf("file:///w/.bench-build/provider/framework/kind.js", "registration")).toBe(
      "pulumi-devicemgmt",
    );
    expect(moduleOf("file:///w/node_modules/@pulumi/pulumi/runtime/resource.js", "x")).toBe("@pulumi/pulumi");
    expect(moduleOf("file:///w/node_modules/@pulumi/pulumi/automation/events.js", "x")).toBe(
      "@pulumi/pulumi automation",
    );
    expect(moduleOf("/w/node_modules/@grpc/grpc-js/build/src/channel.js", "x")).toBe("grpc/protobuf");
    expect(moduleOf("/w/node_modules/google-protobuf/google-protobuf.js", "x")).toBe("grpc/protobuf");
    expect(moduleOf("/w/node_modules/zod/v4/core/schemas.js", "x")).toBe("zod");
    expect(moduleOf("/w/node_modules/@opentelemetry/api/build/x.js", "x")).toBe("@opentelemetry/api");
    expect(moduleOf("node:internal/process/task_queues", "x")).toBe("node (internal)");
    expect(moduleOf("", "(garbage collector)")).toBe("(garbage collector)");
    expect(moduleOf("", "JSONParse")).toBe("node (native)");
    expect(moduleOf("file:///w/.bench-build/test/bench/benchOrg.js", "x")).toBe("bench harness");
  });
});

describe("foldProfile", () => {
  // (root) → registration (package) → Resource (SDK) → serialize (protobuf); (root) → (garbage collector).
  const profile: CpuProfile = {
    nodes: [
      { id: 1, callFrame: frame("(root)", ""), children: [2, 5] },
      { id: 2, callFrame: frame("registration", "file:///w/provider/framework/kind.js", 9), children: [3] },
      { id: 3, callFrame: frame("Resource", "/w/node_modules/@pulumi/pulumi/resource.js"), children: [4] },
      { id: 4, callFrame: frame("serialize", "/w/node_modules/google-protobuf/google-protobuf.js") },
      { id: 5, callFrame: frame("(garbage collector)", "") },
    ],
    // Each sample's time is the delta to the next one; the last one gets the mean of the others.
    samples: [2, 3, 4, 4, 5],
    timeDeltas: [0, 1000, 2000, 3000, 4000],
  };

  it("counts self time per module and total time once per module on the stack", () => {
    const fold = foldProfile(profile);
    expect(fold.sampledMs).toBe(1 + 2 + 3 + 4 + 2.5);
    const byModule = Object.fromEntries(fold.modules.map((m) => [m.module, [m.selfMs, m.totalMs]]));
    expect(byModule).toEqual({
      "grpc/protobuf": [7, 7],
      "(garbage collector)": [2.5, 2.5],
      "@pulumi/pulumi": [2, 9],
      "pulumi-devicemgmt": [1, 10],
    });
    expect(fold.modules.map((m) => m.module)).toEqual([
      "grpc/protobuf",
      "(garbage collector)",
      "@pulumi/pulumi",
      "pulumi-devicemgmt",
    ]);
  });

  it("lists the heaviest frames with where they are", () => {
    const fold = foldProfile(profile, 2);
    expect(fold.functions).toEqual([
      { module: "grpc/protobuf", frame: "serialize google-protobuf/google-protobuf.js:1", selfMs: 7 },
      { module: "(garbage collector)", frame: "(garbage collector) :1", selfMs: 2.5 },
    ]);
  });

  it("counts a recursive module once per sample", () => {
    const recursive: CpuProfile = {
      nodes: [
        { id: 1, callFrame: frame("a", "/w/provider/a.js"), children: [2] },
        { id: 2, callFrame: frame("b", "/w/provider/b.js") },
      ],
      samples: [2, 2],
      timeDeltas: [0, 4000],
    };
    expect(foldProfile(recursive).modules).toEqual([{ module: "pulumi-devicemgmt", selfMs: 8, totalMs: 8 }]);
  });
});
