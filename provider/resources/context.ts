import { clientFor, resolveConnection, type ConnectionInput, type StackSettings } from "../connection";
import type { DeviceMgmtClient } from "../client";
import type { Props } from "./framework";

let stackSettings: StackSettings = {};

/** Stack config arrives once per plugin process through `configure`; resources read it per call. */
export function bindStackSettings(settings: StackSettings): void {
  stackSettings = settings;
}

/** The client for a resource: its own `connection` input first, then stack config, then the environment. */
export function clientForProps(props: Props): DeviceMgmtClient {
  return clientFor(resolveConnection(props.connection as ConnectionInput | undefined, stackSettings));
}
