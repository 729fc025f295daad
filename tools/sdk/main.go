// Generates the Go or Python SDK of a Pulumi package schema with the CLI's own code generators (what
// `pulumi package gen-sdk --language go|python` runs through the language hosts), after binding (validating) the
// schema. Usage: sdk-generator <schema.json> <out folder> [go|python].
package main

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"

	"github.com/blang/semver"
	gogen "github.com/pulumi/pulumi/pkg/v3/codegen/go"
	pygen "github.com/pulumi/pulumi/pkg/v3/codegen/python"
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
	// The language: go (default) or python, as `pulumi package gen-sdk --language` names them.
	language := "go"
	if len(os.Args) > 3 {
		language = os.Args[3]
	}
	var files map[string][]byte
	switch language {
	case "go":
		files, err = gogen.GeneratePackage("pulumi-devicemgmt", pkg, nil)
	case "python":
		files, err = pygen.GeneratePackage("pulumi-devicemgmt", pkg, nil, nil)
	default:
		err = fmt.Errorf("no generator for %s: go or python", language)
	}
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
