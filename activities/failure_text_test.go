package activities

import (
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"agencyhub/models/automation"
)

// TestEveryFailureKeyIsWorded: each key a call of Failed names (in this package and the
// engine's) is in the failure table, so that no run records a key for its text.
func TestEveryFailureKeyIsWorded(t *testing.T) {
	known := automation.FailureKeys("en")
	var files []string
	for _, dir := range []string{".", "../engine"} {
		_ = filepath.WalkDir(dir, func(path string, d os.DirEntry, err error) error {
			if err == nil && !d.IsDir() && strings.HasSuffix(path, ".go") && !strings.HasSuffix(path, "_test.go") {
				files = append(files, path)
			}
			return err
		})
	}
	calls := 0
	fset := token.NewFileSet()
	for _, path := range files {
		f, err := parser.ParseFile(fset, path, nil, 0)
		if err != nil {
			t.Fatal(err)
		}
		ast.Inspect(f, func(n ast.Node) bool {
			call, ok := n.(*ast.CallExpr)
			if !ok || len(call.Args) != 5 || !isFailed(call.Fun) {
				return true
			}
			calls++
			key := literal(call.Args[2])
			for i, arg := range call.Args[2:4] {
				s, ok := arg.(*ast.BasicLit)
				if !ok {
					continue
				}
				name, _ := strconv.Unquote(s.Value)
				if i == 1 && name == "" && key != "" {
					name = key + ".next"
				}
				if name != "" && !slices.Contains(known, name) {
					t.Errorf("%s: the failure table has no %q", fset.Position(arg.Pos()), name)
				}
			}
			return true
		})
	}
	if calls < 40 {
		t.Fatalf("found only %d calls of Failed", calls)
	}
}

func isFailed(fun ast.Expr) bool {
	switch f := fun.(type) {
	case *ast.Ident:
		return f.Name == "Failed"
	case *ast.SelectorExpr:
		return f.Sel.Name == "Failed"
	}
	return false
}

func literal(e ast.Expr) string {
	if s, ok := e.(*ast.BasicLit); ok {
		v, _ := strconv.Unquote(s.Value)
		return v
	}
	return ""
}
