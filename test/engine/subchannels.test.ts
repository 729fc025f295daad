// Why the engine gives each inline program's gRPC client its own subchannel pool (subchannels.ts): a server
// that died leaves its subchannel failed in grpc-js's shared pool, and a new server on the same port is then
// unreachable for every new client of the process; with a pool per client, the new client connects.
import * as grpc from "@grpc/grpc-js";
import { ownSubchannelPoolPerClient } from "./subchannels";

const identity = (bytes: Buffer) => bytes;
const ping = {
  path: "/devicemgmt.test.Echo/Ping",
  requestStream: false,
  responseStream: false,
  requestSerialize: identity,
  requestDeserialize: identity,
  responseSerialize: identity,
  responseDeserialize: identity,
} as const;
const EchoClient = grpc.makeGenericClientConstructor({ ping }, "Echo");
type Echo = InstanceType<typeof EchoClient> & {
  ping(request: Buffer, callback: (error: grpc.ServiceError | null, reply?: Buffer) => void): void;
};

async function serve(port = 0): Promise<{ server: grpc.Server; port: number }> {
  const server = new grpc.Server();
  server.addService(
    { ping },
    { ping: (_call: unknown, reply: grpc.sendUnaryData<Buffer>) => reply(null, Buffer.from("pong")) },
  );
  const bound = await new Promise<number>((resolve, reject) =>
    server.bindAsync(`127.0.0.1:${port}`, grpc.ServerCredentials.createInsecure(), (error, p) =>
      error ? reject(error) : resolve(p),
    ),
  );
  return { server, port: bound };
}

const call = (client: Echo) =>
  new Promise<string>((resolve) =>
    client.ping(Buffer.from("ping"), (error, reply) => resolve(error ? error.message : String(reply))),
  );

/** A client that used a server which then died; a new server on the same port; a new client's first call. */
async function newClientAfterServerDied(options: Record<string, unknown>): Promise<string> {
  const first = await serve();
  const old = new EchoClient(`127.0.0.1:${first.port}`, grpc.credentials.createInsecure(), options) as Echo;
  const clients = [old];
  try {
    expect(await call(old)).toBe("pong");
    first.server.forceShutdown();
    // The old client keeps trying the dead address (as a killed run's program does): its subchannel fails.
    expect(await call(old)).toMatch(/UNAVAILABLE/);
    const second = await serve(first.port);
    try {
      const fresh = new EchoClient(
        `127.0.0.1:${first.port}`,
        grpc.credentials.createInsecure(),
        options,
      ) as Echo;
      clients.push(fresh);
      return await call(fresh);
    } finally {
      second.server.forceShutdown();
    }
  } finally {
    for (const client of clients) client.close();
  }
}

test("with grpc-js's shared pool, a new client of a reused port fails at once with the dead server's subchannel", async () => {
  expect(await newClientAfterServerDied({})).toMatch(
    /UNAVAILABLE: No connection established\. Last error: null/,
  );
});

test("with the options the engine gives the SDK's clients, the new client reaches the new server", async () => {
  expect(await newClientAfterServerDied(ownSubchannelPoolPerClient())).toBe("pong");
});
