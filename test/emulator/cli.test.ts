/** The `devicemgmt-emulator` command: options, banner, a working API, clean shutdown. */
import { SEED_TOKENS } from "../../emulator/seed";
import { call } from "./helpers";
import { exited, runCli, startCli } from "./process";

describe("devicemgmt-emulator", () => {
  it("prints the listening line and the seeded tokens, and answers with a printed token", async () => {
    const emulator = await startCli(["--rate-limit", "50", "--admin-token", "cli-secret"]);
    try {
      const lines = emulator.output().split("\n");
      expect(lines[0]).toMatch(/^listening on http:\/\/127\.0\.0\.1:\d+\/api\/v3$/);
      const printed = lines.map((line) => /\s(\d+\|[A-Za-z0-9]{40})\s/.exec(line)?.[1]).filter(Boolean);
      expect(printed.sort()).toEqual(Object.values(SEED_TOKENS).sort());
      expect(emulator.output()).toContain("cli-secret");

      const me = await call("GET", `${emulator.baseUrl}/current-user`, { token: SEED_TOKENS.admin });
      expect(me.status).toBe(200);
      expect(me.body.email).toBe("ada.admin@acme.example");
      expect(me.headers["x-ratelimit-limit"]).toBe("50");
      const control = await call("GET", `${emulator.baseUrl.replace("/api/v3", "")}/_emulator/stats`, {
        token: "cli-secret",
      });
      expect(control.body.requests).toBe(1);
    } finally {
      emulator.child.kill("SIGTERM");
    }
    expect(await exited(emulator.child)).toEqual({ code: 0, signal: null });
  });

  it("takes fault options", async () => {
    const emulator = await startCli(["--error-rate", "1", "--fault-seed", "9"]);
    try {
      const response = await call("GET", `${emulator.baseUrl}/current-user`, { token: SEED_TOKENS.admin });
      expect([500, 502, 503]).toContain(response.status);
    } finally {
      emulator.child.kill("SIGTERM");
      await exited(emulator.child);
    }
  });

  it("explains bad options and exits with 2", async () => {
    const child = runCli(["--port", "abc"]);
    let stderr = "";
    child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
    expect((await exited(child)).code).toBe(2);
    expect(stderr).toContain('--port needs a number, got "abc"');
    expect(stderr).toContain("usage: devicemgmt-emulator");
  });

  it("prints usage for --help", async () => {
    const child = runCli(["--help"]);
    let stdout = "";
    child.stdout.on("data", (chunk: Buffer) => (stdout += chunk.toString()));
    expect((await exited(child)).code).toBe(0);
    expect(stdout).toContain("--rate-window-ms");
  });
});
