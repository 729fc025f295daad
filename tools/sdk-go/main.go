// Generates the Go SDK of a Pulumi package schema with the CLI's own Go code generator (what
// `pulumi package gen-sdk --language go` runs through the Go language host), after binding (validating) the schema.
package main

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"

	"github.com/blang/semver"
	gogen "github.com/pulumi/pulumi/pkg/v3/codegen/go"
	"github.com/pulumi/pulumi/pkg/v3/codegen/schema"
)

// noPackages loads no other package: the schema references none.
type noPackages struct{}

func (noPackages) LoadPackage(pkg string, version *semver.Version) (*schema.Package, error) {
	return nil, fmt.Errorf("the schema references package %s, which is not loaded here", pkg)
}

func (noPackages) LoadPackageV2(_ context.Context, d *schema.PackageDescriptor) (*schema.Package, error) {
	return nil, fmt.Errorf("the schema references package %s, which is not loaded here", d.Name)
}

func main() {
	data, err := os.ReadFile(os.Args[1])
	if err != nil {
		panic(err)
	}
	var spec schema.PackageSpec
	if err := json.Unmarshal(data, &spec); err != nil {
		panic(err)
	}
	pkg, diags, err := schema.BindSpec(spec, noPackages{}, schema.ValidationOptions{})
	if err != nil {
		panic(err)
	}
	for _, d := range diags {
		fmt.Fprintln(os.Stderr, d.Error())
	}
	if diags.HasErrors() {
		os.Exit(2)
	}
	files, err := gogen.GeneratePackage("pulumi-devicemgmt", pkg, nil)
	if err != nil {
		panic(err)
	}
	for name, content := range files {
		path := filepath.Join(os.Args[2], name)
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			panic(err)
		}
		if err := os.WriteFile(path, content, 0o644); err != nil {
			panic(err)
		}
	}
	fmt.Println(len(files), "files")
}
