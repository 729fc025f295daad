/**
 * Every gRPC client an inline program makes (to the CLI's engine and resource monitor) gets its own subchannel
 * pool, instead of grpc-js's process-wide one.
 *
 * Why: the inline programs of every run live in this one process. A run whose CLI a test kills leaves its clients
 * here, retrying the dead addresses, so the global pool keeps a subchannel to each in TRANSIENT_FAILURE. When a
 * later CLI happens to listen on one of those ports again (the kernel picks them at random; one CI run met it),
 * that run's new client is handed the failed subchannel and its first call fails at once, "14 UNAVAILABLE: No
 * connection established. Last error: null" (pick_first enters sticky failure without trying). The SDK then
 * treats the program's gRPC error as the engine going away: the run ends "successfully" having declared nothing.
 * A `pulumi` process runs one program and exits, so only this test process can meet it; subchannels.test.ts
 * shows both the failure and this remedy. The SDK builds each client with `grpcClientOptions`, read when the
 * client is made, so the option is added to that object once, before any run.
 */
const LOCAL_POOL = "grpc.use_local_subchannel_pool";

export function ownSubchannelPoolPerClient(): Record<string, unknown> {
  const settings = require("@pulumi/pulumi/runtime/settings") as {
    grpcClientOptions: Record<string, unknown>;
  };
  settings.grpcClientOptions[LOCAL_POOL] = 1;
  return settings.grpcClientOptions;
}
