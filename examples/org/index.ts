import * as pulumi from "@pulumi/pulumi";
import { declareOrganization } from "./organization";
import { DEFAULT_SITE_DEVICES, type SiteDevices } from "./sites";

// Connection settings (devicemgmt:baseUrl and the secret devicemgmt:apiToken) are read by the provider.
const config = new pulumi.Config();
const org = declareOrganization({
  loanerDeviceId: config.require("loanerDeviceId"),
  stagingSlug: config.get("stagingSlug") ?? "acme-staging",
  demoDeviceName: config.get("demoDeviceName") ?? "Headset 01",
  emailDomain: config.get("emailDomain") ?? "acme.example",
  companyName: config.get("companyName"),
  // Set it with: pulumi config set --secret kioskPin <4 to 10 digits>
  kioskPin: config.requireSecret("kioskPin"),
  siteDevices: config.getObject<SiteDevices>("siteDevices") ?? DEFAULT_SITE_DEVICES,
});

export const groups = org.groups;
export const users = org.users;
export const migratedDevice = org.migratedDevice;
export const uploaded = org.uploaded;
