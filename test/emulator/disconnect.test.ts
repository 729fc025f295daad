/**
 * A client that goes away while the emulator holds its request for injected latency. The real server processes a
 * request it has fully received whether or not the client is still there to read the answer; the emulator does
 * the same, every time (not depending on whether the body had been read from the socket before it closed).
 */
import { connect } from "node:net";
import type { RunningEmulator } from "../../emulator";
import { start } from "./helpers";

let emulator: RunningEmulator;

beforeAll(async () => {
  emulator = await start({ faults: { latencyMs: 150 } });
});
afterAll(() => emulator.close());

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Send one complete HTTP request over a raw socket, then close the socket `closeAfterMs` later, unanswered. */
async function sendAndHangUp(method: string, path: string, body: unknown, closeAfterMs: number) {
  const { hostname, port } = new URL(emulator.url);
  const text = body === undefined ? "" : JSON.stringify(body);
  const socket = connect(Number(port), hostname);
  await new Promise<void>((resolve, reject) => {
    socket.once("connect", resolve);
    socket.once("error", reject);
  });
  let answered = false;
  socket.on("data", () => (answered = true));
  socket.on("error", () => undefined);
  socket.write(
    [
      `${method} /api/v3${path} HTTP/1.1`,
      `Host: ${hostname}:${port}`,
      "Accept: application/json",
      `Authorization: Bearer ${emulator.tokens.admin}`,
      "Content-Type: application/json",
      `Content-Length: ${Buffer.byteLength(text)}`,
      "",
      text,
    ].join("\r\n"),
  );
  await sleep(closeAfterMs);
  socket.destroy();
  return () => answered;
}

describe("client disconnects during injected latency", () => {
  it("a fully received write is still processed (every time)", async () => {
    for (let i = 0; i < 5; i++) {
      const answered = await sendAndHangUp("POST", "/groups", { name: `Gone ${i}`, parentId: null }, 30);
      expect(answered()).toBe(false);
    }
    // Wait out the latency of the abandoned requests.
    await sleep(400);
    const names = emulator.snapshot().groups.map((g) => g.name);
    for (let i = 0; i < 5; i++) expect(names).toContain(`Gone ${i}`);
  });

  it("a bodiless write (DELETE) is processed too", async () => {
    const group = emulator.snapshot().groups.find((g) => g.name === "Gone 0");
    expect(group).toBeDefined();
    await sendAndHangUp("DELETE", `/groups/${group!.id}`, undefined, 30);
    await sleep(400);
    expect(emulator.snapshot().groups.map((g) => g.name)).not.toContain("Gone 0");
  });

  it("the emulator keeps serving afterwards", async () => {
    emulator.setFaults({ latencyMs: 0 });
    const response = await fetch(`${emulator.baseUrl}/groups`, {
      headers: { accept: "application/json", authorization: `Bearer ${emulator.tokens.admin}` },
    });
    expect(response.status).toBe(200);
  });
});
