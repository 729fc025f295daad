// The benchmark's floor formula and its mirror of the emulator's rate-limit window.
import { FixedWindowRateLimiter } from "../../emulator/rateLimit";
import { floorMs, WindowShadow } from "./floor";

const base = { parallelism: 16, latencyMs: 40, limit: 2000, windowMs: 60_000 };

describe("floorMs", () => {
  it("is rounds of `parallelism` requests at the latency while the budget lasts", () => {
    expect(floorMs({ ...base, requests: 0, remaining: 2000, untilResetMs: 60_000 })).toBe(0);
    expect(floorMs({ ...base, requests: 1, remaining: 2000, untilResetMs: 60_000 })).toBe(40);
    expect(floorMs({ ...base, requests: 16, remaining: 2000, untilResetMs: 60_000 })).toBe(40);
    expect(floorMs({ ...base, requests: 17, remaining: 2000, untilResetMs: 60_000 })).toBe(80);
    expect(floorMs({ ...base, requests: 1300, remaining: 2000, untilResetMs: 60_000 })).toBe(82 * 40);
  });

  it("waits for the next window for what the budget left does not cover", () => {
    // A fresh window: 2000 now, 1000 after 60 s.
    expect(floorMs({ ...base, requests: 3000, remaining: 2000, untilResetMs: 60_000 })).toBe(
      60_000 + Math.ceil(1000 / 16) * 40,
    );
    // A window opened earlier with 100 left and 20 s to go: 100 now, 2000 at 20 s, 900 at 80 s.
    expect(floorMs({ ...base, requests: 3000, remaining: 100, untilResetMs: 20_000 })).toBe(
      20_000 + 60_000 + Math.ceil(900 / 16) * 40,
    );
    // Exactly the budget: no wait.
    expect(floorMs({ ...base, requests: 100, remaining: 100, untilResetMs: 20_000 })).toBe(7 * 40);
  });

  it("counts only what can go out before the window ends: the rest of its budget is lost with it", () => {
    // 1542 left but 1348 ms to go: 34 rounds of 8 (272 requests) fit before the reset, 2000 in the next window,
    // and the last 1029 wait for the one after (the large bench's destroy, begun at the end of a window).
    const input = { ...base, parallelism: 8, requests: 3301, remaining: 1542, untilResetMs: 1348 };
    expect(floorMs(input)).toBe(1348 + 60_000 + Math.ceil(1029 / 8) * 40);
  });

  it("takes whichever bound is larger when a window is about to end", () => {
    const slow = { ...base, latencyMs: 1000 };
    // 10 go at once; the 150 others wait 5 ms for the next window, then need 10 rounds.
    expect(floorMs({ ...slow, requests: 160, remaining: 10, untilResetMs: 5 })).toBe(10_005);
    // 150 go in the current window over 10 rounds; the 10 others could go after 5 ms, so parallelism rules.
    expect(floorMs({ ...slow, requests: 160, remaining: 150, untilResetMs: 5 })).toBe(10_000);
  });
});

describe("WindowShadow", () => {
  it("agrees with the emulator's limiter request by request", () => {
    let clock = 0;
    const limiter = new FixedWindowRateLimiter({ limit: 5, windowMs: 1000 }, () => clock);
    const shadow = new WindowShadow(5, 1000);
    const times = [0, 10, 20, 30, 40, 50, 60, 999, 1000, 1001, 1500, 2600, 2601];
    for (const t of times) {
      clock = t;
      const decision = limiter.hit("org");
      shadow.hit(t);
      expect(shadow.at(t).remaining).toBe(decision.remaining);
    }
    expect(shadow.at(2700)).toEqual({ remaining: 3, untilResetMs: 900 });
    expect(shadow.at(3600)).toEqual({ remaining: 5, untilResetMs: 1000 });
  });
});
