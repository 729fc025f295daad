"""A Python program on the generated SDK, run inline through the Python Automation API on the pinned CLI.

`up [name]` declares a folder with a configured lab and a tag, `destroy` removes them. The connection comes from
DEVICEMGMT_BASE_URL and DEVICEMGMT_API_TOKEN (stack config); the backend, PULUMI_HOME and the passphrase from
the environment (test/plugin/sdk.test.ts sets them); PULUMI_CLI_ROOT names the CLI's folder.
"""
import os
import sys

import pulumi
import pulumi_devicemgmt as dm
from pulumi import automation as auto


def organization(name):
    def program():
        folder = dm.Group("folder", name=name)
        lab = dm.Group("lab", name=f"{name} Lab", parent_id=folder.id, configured=True)
        dm.Tag("tag", name="python-sdk")
        pulumi.export("labId", lab.id)

    return program


def main(argv):
    step = argv[0]
    name = argv[1] if len(argv) > 1 else "Py Folder"
    command = auto.PulumiCommand(root=os.environ["PULUMI_CLI_ROOT"], skip_version_check=True)
    stack = auto.create_or_select_stack(
        stack_name="dev",
        project_name="python-sdk-program",
        program=organization(name),
        opts=auto.LocalWorkspaceOptions(pulumi_command=command),
    )
    stack.set_config("devicemgmt:baseUrl", auto.ConfigValue(os.environ["DEVICEMGMT_BASE_URL"]))
    stack.set_config("devicemgmt:apiToken", auto.ConfigValue(os.environ["DEVICEMGMT_API_TOKEN"], secret=True))
    log = lambda line: print(line, file=sys.stderr)  # noqa: E731
    if step == "up":
        print(stack.up(on_output=log).outputs["labId"].value)
    elif step == "destroy":
        stack.destroy(on_output=log)
    else:
        raise SystemExit(f"unknown step {step!r}: up [name] or destroy")


if __name__ == "__main__":
    main(sys.argv[1:])
