/**
 * `PULUMI_PARALLEL` and `--parallel` (engine-stand-in/schedule.ts; pkg/cmd/pulumi/operations/up.go, defaultParallel;
 * pkg/resource/deploy/deployment.go, DegreeOfParallelism): the variable sets the default `--parallel` of every
 * command, the flag wins over it, and the step executor runs at least one step at a time. The Item fixture's
 * `gate` makes the number of creates running at once observable without timing: the store records the most.
 */
import { DEFAULT_PARALLELISM, type Engine, type EngineOptions } from "../../engine-stand-in";
import { defaultParallelism, Limiter, OS_DEFAULT_PARALLELISM } from "../../engine-stand-in/schedule";
import { Item } from "./fixtures/item-resource";
import { engineTracker, ItemBackend, newItemBackend } from "./fixtures/item-fixture";

describe("defaultParallelism: the CLI's reading of PULUMI_PARALLEL", () => {
  test("without the variable, 4 × CPUs", () => {
    expect(defaultParallelism({})).toBe(OS_DEFAULT_PARALLELISM);
    expect(DEFAULT_PARALLELISM).toBe(OS_DEFAULT_PARALLELISM);
  });

  // The engine's TestParallelEnvVar cases, then the edges of strconv.ParseInt(v, 10, 64).
  test.each([
    ["4", 4],
    ["1", 1],
    ["0", OS_DEFAULT_PARALLELISM],
    ["", OS_DEFAULT_PARALLELISM],
    ["16", 16],
    ["+5", 5],
    ["-3", OS_DEFAULT_PARALLELISM],
    ["2.5", OS_DEFAULT_PARALLELISM],
    [" 4", OS_DEFAULT_PARALLELISM],
    ["four", OS_DEFAULT_PARALLELISM],
    ["99999999999", 2 ** 31 - 1], // capped at the largest int32, which the engine treats as unbounded
    ["9223372036854775808", OS_DEFAULT_PARALLELISM], // beyond int64: unreadable, so unset
  ])("PULUMI_PARALLEL=%j gives %d", (value, expected) => {
    expect(defaultParallelism({ PULUMI_PARALLEL: value })).toBe(expected);
  });
});

describe("the step limit (DegreeOfParallelism, InfiniteParallelism)", () => {
  async function mostAtOnce(limit: number, tasks: number): Promise<number> {
    const limiter = new Limiter(limit);
    let active = 0;
    let most = 0;
    await Promise.all(
      Array.from({ length: tasks }, () =>
        limiter.run(async () => {
          most = Math.max(most, ++active);
          await new Promise((resolve) => setImmediate(resolve));
          active--;
        }),
      ),
    );
    return most;
  }

  test("0 or less runs one task at a time (instead of none)", async () => {
    expect(await mostAtOnce(0, 5)).toBe(1);
    expect(await mostAtOnce(-2, 5)).toBe(1);
  });

  test("the largest int32 runs them all at once; 3 runs three", async () => {
    expect(await mostAtOnce(2 ** 31 - 1, 50)).toBe(50);
    expect(await mostAtOnce(3, 10)).toBe(3);
  });
});

describe("PULUMI_PARALLEL in runs", () => {
  const engines = engineTracker();
  let backend: ItemBackend;
  const saved = process.env.PULUMI_PARALLEL;

  beforeEach(() => {
    backend = newItemBackend();
  });
  afterEach(async () => {
    if (saved === undefined) delete process.env.PULUMI_PARALLEL;
    else process.env.PULUMI_PARALLEL = saved;
    await engines.closeAll();
  });

  /** Four creates, each held until `gate` creates have started. */
  const program = (gate: number) => () => {
    for (const name of ["p1", "p2", "p3", "p4"]) new Item(name, { name, gate });
  };

  async function mostCreatesAtOnce(
    gate: number,
    options: Partial<EngineOptions> = {},
    runParallelism?: number,
  ) {
    const engine: Engine = await engines.create(backend.engineOptions(options));
    const result = await engine.up(
      program(gate),
      runParallelism === undefined ? {} : { parallelism: runParallelism },
    );
    expect(result.errors).toEqual([]);
    expect(Object.keys(backend.data().objects)).toHaveLength(4);
    return backend.data().creating.max;
  }

  test("PULUMI_PARALLEL=2 in the CLI's environment: two creates at a time", async () => {
    process.env.PULUMI_PARALLEL = "2";
    expect(await mostCreatesAtOnce(2)).toBe(2);
  });

  test("PULUMI_PARALLEL=1 given in the engine's environment: one at a time", async () => {
    delete process.env.PULUMI_PARALLEL;
    expect(await mostCreatesAtOnce(1, { env: { PULUMI_PARALLEL: "1" } })).toBe(1);
  });

  test("PULUMI_PARALLEL=0 is unset: the default 4 × CPUs lets all four run together", async () => {
    process.env.PULUMI_PARALLEL = "0";
    expect(OS_DEFAULT_PARALLELISM).toBeGreaterThanOrEqual(4);
    expect(await mostCreatesAtOnce(4)).toBe(4);
  });

  test("--parallel wins over PULUMI_PARALLEL", async () => {
    process.env.PULUMI_PARALLEL = "1";
    expect(await mostCreatesAtOnce(3, {}, 3)).toBe(3);
  });
});
