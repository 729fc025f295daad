// Plain http to another machine, through the real Pulumi CLI and the real plugin, for each source of the base
// URL: stack config, environment, a resource's connection. Refused with the property and the opt-in named (and
// never the token); allowed with the opt-in; loopback (the emulator) always allowed.
import * as os from "os";
import { startEmulator, type RunningEmulator } from "../../emulator";
import { createEngine } from "../engine";
import { Group } from "../../provider";
import { repoRoot } from "../harness/providerStack";

const TOKEN = "1|never-printed-token";

/** This machine's address on a network interface (not loopback), if it has one. */
const lanAddress = Object.values(os.networkInterfaces())
  .flat()
  .find((i) => i && i.family === "IPv4" && !i.internal)?.address;

async function upOneGroup(options: {
  config?: Record<string, string>;
  env?: Record<string, string>;
  connection?: Record<string, unknown>;
  token?: string;
  name?: string;
}) {
  const engine = await createEngine({
    cwd: repoRoot,
    config: options.config ?? {},
    secretConfig: { "devicemgmt:apiToken": options.token ?? TOKEN },
  });
  try {
    const result = await engine.up(
      () => {
        new Group("lab", { name: options.name ?? "Insecure Lab", connection: options.connection as never });
      },
      { env: { DEVICEMGMT_BASE_URL: "", DEVICEMGMT_ALLOW_INSECURE_HTTP: "", ...options.env } },
    );
    return { result, resources: engine.resources() };
  } finally {
    await engine.close();
  }
}

describe("plain http to another machine is refused from every source", () => {
  it("stack config devicemgmt:baseUrl", async () => {
    const { result, resources } = await upOneGroup({
      config: { "devicemgmt:baseUrl": "http://devices.lan/api/v3" },
    });
    expect(result.ok).toBe(false);
    const message = result.errors.map((e) => e.message).join("\n");
    expect(message).toMatch(/devicemgmt:baseUrl "http:\/\/devices\.lan\/api\/v3" uses plain http/);
    expect(message).toMatch(/pulumi config set devicemgmt:allowInsecureHttp true/);
    expect(message).not.toContain("never-printed-token");
    expect(resources.filter((r) => r.name === "lab")).toEqual([]);
  });

  it("environment DEVICEMGMT_BASE_URL", async () => {
    const { result } = await upOneGroup({ env: { DEVICEMGMT_BASE_URL: "http://10.1.2.3/api/v3" } });
    expect(result.ok).toBe(false);
    const message = result.errors.map((e) => e.message).join("\n");
    expect(message).toMatch(/DEVICEMGMT_BASE_URL "http:\/\/10\.1\.2\.3\/api\/v3" uses plain http/);
    expect(message).toMatch(/DEVICEMGMT_ALLOW_INSECURE_HTTP=true/);
    expect(message).not.toContain("never-printed-token");
  });

  it("a resource's connection.baseUrl (at check, before any request)", async () => {
    const { result } = await upOneGroup({
      config: { "devicemgmt:baseUrl": "https://devices.example.com/api/v3" },
      connection: { baseUrl: "http://devices.lan/api/v3", apiToken: TOKEN },
    });
    expect(result.ok).toBe(false);
    const message = JSON.stringify(result.errors);
    expect(message).toMatch(/connection\.baseUrl .*allowInsecureHttp: true/);
    expect(message).not.toContain("never-printed-token");
  });
});

describe("the emulator", () => {
  let loopback: RunningEmulator;
  beforeAll(async () => {
    loopback = await startEmulator({ port: 0 });
  });
  afterAll(() => loopback?.close());

  it("on loopback needs no opt-in", async () => {
    const { result } = await upOneGroup({
      config: { "devicemgmt:baseUrl": loopback.baseUrl },
      token: loopback.tokens.admin,
    });
    expect(result.errors).toEqual([]);
    expect(loopback.snapshot().groups.map((g) => g.name)).toContain("Insecure Lab");
  });

  // Needs an address of this machine that is not loopback (most machines have one; some sandboxes do not).
  (lanAddress ? it : it.skip)(
    "on another address is reached over plain http with the opt-in from config or environment",
    async () => {
      const lan = await startEmulator({ port: 0, host: lanAddress });
      try {
        const fromConfig = await upOneGroup({
          config: { "devicemgmt:baseUrl": lan.baseUrl, "devicemgmt:allowInsecureHttp": "true" },
          token: lan.tokens.admin,
        });
        expect(fromConfig.result.errors).toEqual([]);
        const fromEnv = await upOneGroup({
          env: { DEVICEMGMT_BASE_URL: lan.baseUrl, DEVICEMGMT_ALLOW_INSECURE_HTTP: "true" },
          token: lan.tokens.admin,
          name: "Insecure Lab 2",
        });
        expect(fromEnv.result.errors).toEqual([]);
        expect(lan.snapshot().groups.map((g) => g.name)).toEqual(
          expect.arrayContaining(["Insecure Lab", "Insecure Lab 2"]),
        );
      } finally {
        await lan.close();
      }
    },
  );
});
