// The policy pack: `pulumi preview --policy-pack examples/policy --policy-pack-config policy-config.json`.
import { PolicyPack } from "@pulumi/policy";
import { policies } from "./policies";

new PolicyPack("devicemgmt-organization", { policies });
