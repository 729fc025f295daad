/**
 * A bare HTTP server in a process of its own, for `npm run bench -- --noop-http`: the do-nothing provider's
 * create and delete each send it one request through undici, as the real client does, so that the bench can
 * tell the cost of sending a request in the plugin from the cost of everything else the provider does. It
 * answers after the same added latency as the emulator: 204 to a DELETE, otherwise 201 with the request's JSON
 * body and an id. It checks nothing and keeps nothing.
 */
import { fork } from "node:child_process";
import * as http from "node:http";
import type { AddressInfo } from "node:net";

export interface BareServer {
  origin: string;
  /** Stops the server; resolves to the number of requests it answered. */
  close(): Promise<number>;
}

export async function startBareServer(latencyMs: number): Promise<BareServer> {
  const child = fork(__filename, ["--child", String(latencyMs)], {
    stdio: ["ignore", "inherit", "inherit", "ipc"],
  });
  const origin = await new Promise<string>((resolve, reject) => {
    child.once("exit", (code) => reject(new Error(`the bare HTTP server exited (code ${code})`)));
    child.once("message", (message) => resolve(String(message)));
  });
  return {
    origin,
    close: () =>
      new Promise<number>((resolve) => {
        child.removeAllListeners("exit");
        child.once("message", (answered) => {
          child.once("exit", () => resolve(Number(answered)));
          child.kill();
        });
        child.send("count");
      }),
  };
}

function serve(latencyMs: number): void {
  let answered = 0;
  process.on("message", () => process.send?.(answered));
  const server = http.createServer((request, response) => {
    answered += 1;
    const chunks: Buffer[] = [];
    request.on("data", (chunk: Buffer) => chunks.push(chunk));
    request.on("end", () => {
      setTimeout(() => {
        if (request.method === "DELETE") {
          response.writeHead(204).end();
          return;
        }
        const sent = chunks.length > 0 ? JSON.parse(Buffer.concat(chunks).toString("utf8")) : {};
        const body = JSON.stringify({ ...sent, id: crypto.randomUUID() });
        response.writeHead(201, { "content-type": "application/json" }).end(body);
      }, latencyMs);
    });
  });
  server.listen(0, "127.0.0.1", () => {
    const { port } = server.address() as AddressInfo;
    process.send?.(`http://127.0.0.1:${port}`);
  });
  process.on("disconnect", () => process.exit(0));
}

if (process.argv[2] === "--child") serve(Number(process.argv[3]));
