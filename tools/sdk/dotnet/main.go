// Generates the C# (.NET) SDK of a Pulumi package schema with the CLI's own .NET code generator, after binding
// (validating) the schema. The generator left pulumi/pulumi after pkg/v3 v3.206.0 (it lives in pulumi-dotnet,
// which the Go module proxy does not serve), so this module pins v3.206.0, the version the YAML language host
// builds against (tools/pulumi-language-yaml). Usage: dotnet-sdk-generator <schema.json> <out folder>.
package main

import (
	"bytes"
	"context"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"os"
	"path/filepath"

	"github.com/blang/semver"
	dotnetgen "github.com/pulumi/pulumi/pkg/v3/codegen/dotnet"
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

// offlineLogo answers the generator's one request: the package icon, which it downloads from pkg.LogoURL (or
// Pulumi's logo on GitHub when the schema names none) to put in the NuGet package. Nothing is fetched: the icon is
// a transparent 1x1 PNG, and any other request fails.
type offlineLogo struct{}

const transparentPixel = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAAC0lEQVR4nGNgAAIAAAUAAXpeqz8AAAAASUVORK5CYII="

func (offlineLogo) RoundTrip(request *http.Request) (*http.Response, error) {
	if !bytes.HasSuffix([]byte(request.URL.Path), []byte(".png")) {
		return nil, fmt.Errorf("the generator runs offline: no request to %s", request.URL)
	}
	png, err := base64.StdEncoding.DecodeString(transparentPixel)
	if err != nil {
		return nil, err
	}
	return &http.Response{
		StatusCode: http.StatusOK,
		Header:     http.Header{"Content-Type": []string{"image/png"}},
		Body:       io.NopCloser(bytes.NewReader(png)),
		Request:    request,
	}, nil
}

func main() {
	http.DefaultTransport = offlineLogo{}
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
	files, err := dotnetgen.GeneratePackage("pulumi-devicemgmt", pkg, nil, nil)
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
