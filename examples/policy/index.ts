// The policy pack (PulumiPolicy.yaml): `pulumi preview --policy-pack examples/policy --policy-pack-config <file>`.
import { PolicyPack } from "@pulumi/policy";
import { policies } from "./policies";

new PolicyPack("devicemgmt-organization", { policies });
