// The organization report the demo prints after its runs: the group tree indented a level at a time, sites
// marked with their channels, users with their roles, and the channels of ungrouped devices.
import { formatOrganization, groupTreeLines, type OrganizationView } from "../../examples/demo/orgReport";

describe("formatOrganization", () => {
  const org: OrganizationView = {
    name: "Acme Devices",
    slug: "acme",
    groups: [
      {
        name: "Acme Training",
        configured: false,
        channels: [],
        children: [
          { name: "Berlin Lab", configured: true, channels: ["Safety Briefing / Stable"], children: [] },
        ],
      },
    ],
    users: [
      {
        name: "Emil Lindqvist",
        email: "emil@acme.example",
        roles: ["Group Admin@Berlin Lab", "Read Only@org"],
      },
    ],
    devices: [{ device: "Headset 01", channels: ["Training Simulator / Beta"] }],
  };

  it("indents the tree a level at a time and marks configured groups and their channels", () => {
    expect(groupTreeLines(org.groups)).toEqual([
      "  Acme Training",
      "    Berlin Lab  [configured; channel Safety Briefing / Stable]",
    ]);
  });

  it("prints groups, users with roles, and device channels", () => {
    expect(formatOrganization(org)).toEqual([
      "Organization Acme Devices (acme), as the API now reports it:",
      "Groups:",
      "  Acme Training",
      "    Berlin Lab  [configured; channel Safety Briefing / Stable]",
      "Users and roles:",
      "  emil@acme.example  Emil Lindqvist: Group Admin@Berlin Lab, Read Only@org",
      "Release channels on ungrouped devices:",
      "  Headset 01: Training Simulator / Beta",
    ]);
  });

  it("ends with the uploaded content and its checksums, when given", () => {
    const uploaded = [
      "build Training Simulator 2.6.0-beta.1 (available): SHA-256 8cd9",
      'video "Forklift Safety" (forklift-safety.mp4, TwoDimensional): SHA-512 2a5e',
    ];
    expect(formatOrganization({ ...org, uploaded }).slice(-3)).toEqual([
      "Content the program uploaded, with the checksums the API computed:",
      ...uploaded.map((line) => `  ${line}`),
    ]);
  });
});
