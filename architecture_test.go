// The architecture test: imports between the service's own packages go one way,
// cmd -> api -> engine -> activities -> models -> platform, and any of them may import
// schemas. migrations sits with models: it records the models' tables, and its dbtest gives
// the models' tests migrated databases. platform is the ground floor of infrastructure every
// layer uses (the event bus, the file store, metrics, the SQLite write gate, benchmark
// helpers): below models, so that models may use it and it knows no domain. web holds
// embedded browser assets and imports nothing of ours, so it ranks with schemas. Test
// files are held to the same rule as the code.
package architecture_test

import (
	"bufio"
	"bytes"
	"os/exec"
	"slices"
	"strings"
	"testing"
)

const module = "agencyhub"

// layers ranks the top-level directories: a package may import packages of its own rank
// or below.
var layers = map[string]int{
	"cmd":        6,
	"api":        5,
	"engine":     4,
	"activities": 3,
	"models":     2,
	"migrations": 2,
	"platform":   1,
	"schemas":    0,
	"web":        0,
}

// imports are one package's imports of the module's own packages, tests' included.
type imports struct {
	pkg     string
	imports []string
}

// violations lists every import that climbs back up, as "importer -> imported".
func violations(t *testing.T, pkgs []imports) []string {
	t.Helper()
	var out []string
	for _, p := range pkgs {
		from, ok := rank(p.pkg)
		if !ok {
			if p.pkg != module {
				t.Errorf("package %s is in no layer: give its directory a rank in layers", p.pkg)
			}
			continue
		}
		for _, imported := range p.imports {
			to, ok := rank(imported)
			if ok && to > from {
				out = append(out, p.pkg+" -> "+imported)
			}
		}
	}
	return out
}

// rank is the layer of one of the module's packages.
func rank(pkg string) (int, bool) {
	rest, ok := strings.CutPrefix(pkg, module+"/")
	if !ok {
		return 0, false
	}
	top, _, _ := strings.Cut(rest, "/")
	r, ok := layers[top]
	return r, ok
}

// listImports asks the go command for every package of the module and its own imports.
func listImports(t *testing.T) []imports {
	t.Helper()
	cmd := exec.Command("go", "list", "-f", `{{.ImportPath}} {{join .Imports " "}} {{join .TestImports " "}} {{join .XTestImports " "}}`, "./...")
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("go list: %v\n%s", err, stderr.String())
	}
	var pkgs []imports
	sc := bufio.NewScanner(bytes.NewReader(out))
	for sc.Scan() {
		fields := strings.Fields(sc.Text())
		p := imports{pkg: fields[0]}
		for _, f := range fields[1:] {
			if strings.HasPrefix(f, module+"/") && f != p.pkg && !slices.Contains(p.imports, f) {
				p.imports = append(p.imports, f)
			}
		}
		pkgs = append(pkgs, p)
	}
	if len(pkgs) < 10 {
		t.Fatalf("go list found only %d packages:\n%s", len(pkgs), out)
	}
	return pkgs
}

func TestImportsGoOneWay(t *testing.T) {
	if bad := violations(t, listImports(t)); len(bad) > 0 {
		t.Fatalf("imports against cmd -> api -> engine -> activities -> models -> platform (schemas anywhere):\n  %s",
			strings.Join(bad, "\n  "))
	}
}

func TestAnUpwardImportIsAViolation(t *testing.T) {
	pkgs := []imports{
		{pkg: "agencyhub/models/integration", imports: []string{"agencyhub/models", "agencyhub/schemas", "agencyhub/activities/egress"}},
		{pkg: "agencyhub/activities", imports: []string{"agencyhub/models/integration", "agencyhub/activities/egress"}},
		{pkg: "agencyhub/migrations/dbtest", imports: []string{"agencyhub/migrations", "agencyhub/models/company"}},
		{pkg: "agencyhub/engine", imports: []string{"agencyhub/api/httpx"}},
		{pkg: "agencyhub/models", imports: []string{"agencyhub/platform/filestore"}},
		{pkg: "agencyhub/platform/filestore", imports: []string{"agencyhub/models"}},
	}
	want := []string{
		"agencyhub/models/integration -> agencyhub/activities/egress",
		"agencyhub/engine -> agencyhub/api/httpx",
		"agencyhub/platform/filestore -> agencyhub/models",
	}
	if got := violations(t, pkgs); !slices.Equal(got, want) {
		t.Fatalf("violations = %v, want %v", got, want)
	}
}
