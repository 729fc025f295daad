// The registration's stack trace in the state (provider/framework/registrationTrace.ts): one frame, the program's
// line that declared the resource, where the SDK records the whole stack; errors read as before.
import * as path from "path";
import * as dm from "../../provider";
import { useProgramStack } from "../harness/programStack";

const stack = useProgramStack({ project: "registration-trace" });

interface TracedResource {
  urn: string;
  sourcePosition?: string;
  stackTrace?: { sourcePosition?: string }[];
}
const traced = (name: string) =>
  (stack.engine.checkpoint().deployment.resources as unknown as TracedResource[]).find((r) =>
    r.urn.endsWith(`::${name}`),
  )!;

// Named functions: the SDK cannot read the position of an anonymous frame (it stores `{}`).
function declareLab() {
  return new dm.Group("lab", { name: "Trace Lab" }); // the declaration's line: DECLARATION_LINE
}
function declareBroken() {
  return new dm.Group("broken", {
    name: "Trace Broken",
    adoptId: "00000000-0000-4000-8000-000000000000",
  });
}
const DECLARATION_LINE = 21;
const thisFile = path.basename(__filename);

test("a resource's stack trace in the state is the program's line that declared it", async () => {
  const hookBefore = Error.prepareStackTrace;
  const result = await stack.engine.up(function program() {
    declareLab();
  });
  expect(result.errors).toEqual([]);
  expect((await stack.admin.groups.all()).filter((g) => g.name === "Trace Lab")).toHaveLength(1);
  const lab = traced("lab");
  expect(lab.sourcePosition).toMatch(new RegExp(`/test/framework/${thisFile}#${DECLARATION_LINE},\\d+$`));
  expect(lab.stackTrace).toEqual([{ sourcePosition: lab.sourcePosition }]);
  // Only this package's resources: the stack's own registration keeps the whole trace the SDK captured.
  expect(traced(`registration-trace-test`).stackTrace!.length).toBeGreaterThan(3);
  // The hook is what it was once the resources are constructed.
  expect(Error.prepareStackTrace).toBe(hookBefore);
});

test("an error still names the resource and says what to fix", async () => {
  const result = await stack.engine.up(function program() {
    declareLab();
    declareBroken();
  });
  expect(result.errors).toEqual([
    expect.objectContaining({
      op: "create",
      urn: expect.stringContaining("::broken"),
      message: expect.stringContaining("adoptId: no group with id 00000000-0000-4000-8000-000000000000"),
    }),
  ]);
  expect(stack.engine.stderr()).toContain("pulumi-nodejs:dynamic/devicemgmt:Group (broken):");
  expect((await stack.admin.groups.all()).filter((g) => g.name.startsWith("Trace"))).toHaveLength(1);
});
