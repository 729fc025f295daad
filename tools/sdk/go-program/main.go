// A Go program on the generated SDK, run inline through the Go Automation API on the pinned CLI: `up <group name>`
// declares a folder with a configured lab and a tag, `destroy` removes them. The connection comes from
// DEVICEMGMT_BASE_URL and DEVICEMGMT_API_TOKEN (stack config); the backend, PULUMI_HOME and the passphrase from
// the environment (test/plugin/sdk-go.test.ts sets them); PULUMI_CLI_ROOT names the CLI's folder.
package main

import (
	"context"
	"fmt"
	"os"

	"github.com/pulumi-devicemgmt/pulumi-devicemgmt/sdk/go/devicemgmt"
	"github.com/pulumi/pulumi/sdk/v3/go/auto"
	"github.com/pulumi/pulumi/sdk/v3/go/auto/optdestroy"
	"github.com/pulumi/pulumi/sdk/v3/go/auto/optup"
	"github.com/pulumi/pulumi/sdk/v3/go/pulumi"
)

func organization(name string) pulumi.RunFunc {
	return func(ctx *pulumi.Context) error {
		folder, err := devicemgmt.NewGroup(ctx, "folder", &devicemgmt.GroupArgs{Name: pulumi.String(name)})
		if err != nil {
			return err
		}
		lab, err := devicemgmt.NewGroup(ctx, "lab", &devicemgmt.GroupArgs{
			Name:       pulumi.String(name + " Lab"),
			ParentId:   folder.ID().ToStringOutput(),
			Configured: pulumi.Bool(true),
		})
		if err != nil {
			return err
		}
		if _, err := devicemgmt.NewTag(ctx, "tag", &devicemgmt.TagArgs{Name: pulumi.String("go-sdk")}); err != nil {
			return err
		}
		ctx.Export("labId", lab.ID())
		return nil
	}
}

func run(ctx context.Context, args []string) error {
	command, err := auto.NewPulumiCommand(&auto.PulumiCommandOptions{Root: os.Getenv("PULUMI_CLI_ROOT"), SkipVersionCheck: true})
	if err != nil {
		return err
	}
	name := "Go Folder"
	if len(args) > 1 {
		name = args[1]
	}
	stack, err := auto.UpsertStackInlineSource(ctx, "dev", "go-sdk-program", organization(name), auto.Pulumi(command))
	if err != nil {
		return err
	}
	if err := stack.SetConfig(ctx, "devicemgmt:baseUrl", auto.ConfigValue{Value: os.Getenv("DEVICEMGMT_BASE_URL")}); err != nil {
		return err
	}
	token := auto.ConfigValue{Value: os.Getenv("DEVICEMGMT_API_TOKEN"), Secret: true}
	if err := stack.SetConfig(ctx, "devicemgmt:apiToken", token); err != nil {
		return err
	}
	switch args[0] {
	case "up":
		result, err := stack.Up(ctx, optup.ProgressStreams(os.Stderr))
		if err != nil {
			return err
		}
		fmt.Println(result.Outputs["labId"].Value)
	case "destroy":
		if _, err := stack.Destroy(ctx, optdestroy.ProgressStreams(os.Stderr)); err != nil {
			return err
		}
	default:
		return fmt.Errorf("unknown step %q: up [name] or destroy", args[0])
	}
	return nil
}

func main() {
	if err := run(context.Background(), os.Args[1:]); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
}
