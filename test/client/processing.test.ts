// Waiting for uploaded content to be processed (client/processing.ts): pending until available, with growing
// pauses; any other status fails at once with it (and the API's reason when there is one); a wait that outlasts
// its timeout fails naming the id. Pure: the reads and the pauses are injected.
import {
  ContentProcessingFailedError,
  ContentProcessingTimeoutError,
  waitUntilAvailable,
} from "../../provider/client";
import { DeviceMgmtProblem } from "../../provider/errors";

type Item = { id: string; status?: string; statusReason?: string | null };

function reads(...statuses: (string | undefined)[]) {
  const answers = statuses.map((status): Item => ({ id: "img-1", status }));
  let i = 0;
  return { read: async () => answers[Math.min(++i, answers.length - 1)], count: () => i, first: answers[0] };
}

test("polls while pending, with pauses that grow, until available", async () => {
  const pauses: number[] = [];
  const seen: string[] = [];
  const r = reads("pending", "pending", "pending", "available");
  const done = await waitUntilAvailable("Image", r.first, r.read, {
    sleep: async (ms) => void pauses.push(ms),
    onStatus: (s) => seen.push(s),
  });
  expect(done.status).toBe("available");
  expect(r.count()).toBe(3);
  expect(pauses).toEqual([250, 500, 1000]);
  expect(seen).toEqual(["pending", "pending", "pending", "available"]);
});

test("a status other than pending or available fails at once with the status and the reason", async () => {
  const first: Item = { id: "img-2", status: "error", statusReason: "unsupported colour profile" };
  const error = await waitUntilAvailable("Image", first, async () => first).catch((e: unknown) => e);
  expect(error).toBeInstanceOf(ContentProcessingFailedError);
  expect(error).toBeInstanceOf(DeviceMgmtProblem);
  expect(error).toMatchObject({
    id: "img-2",
    status: "error",
    reason: "unsupported colour profile",
    property: "source",
  });
  expect((error as Error).message).toContain('ended its processing as "error": unsupported colour profile');
});

test("still pending after the timeout fails naming the id and the time waited", async () => {
  const r = reads("pending", "pending");
  let now = 0;
  const realNow = Date.now;
  Date.now = () => now;
  try {
    const error = await waitUntilAvailable("Custom 3D environment", r.first, r.read, {
      timeoutMs: 5_000,
      sleep: async (ms) => void (now += ms),
    }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ContentProcessingTimeoutError);
    expect(error).toMatchObject({ id: "img-1", timeoutMs: 5_000 });
    expect((error as Error).message).toContain("still pending after 5 s");
  } finally {
    Date.now = realNow;
  }
});
