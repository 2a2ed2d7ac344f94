package automation

import (
	"encoding/json"
	"fmt"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/expr-lang/expr"
	"github.com/expr-lang/expr/ast"
	"github.com/expr-lang/expr/parser"
)

// templatePattern finds {{ path }} references; a path is dotted names and array indices.
var templatePattern = regexp.MustCompile(`\{\{\s*([A-Za-z0-9_\-]+(?:\.[A-Za-z0-9_\-]+)*)\s*\}\}`)

// TemplatePaths lists the paths a string references.
func TemplatePaths(s string) []string {
	var out []string
	for _, m := range templatePattern.FindAllStringSubmatch(s, -1) {
		out = append(out, m[1])
	}
	return out
}

// BrokenTemplates lists the "{{" openings of s that do not begin a {{ path }} reference
// (a missing closing brace, a space inside a name), each as the text it begins, up to
// brokenTemplateShown characters, so an author sees which one. Render leaves them as text.
func BrokenTemplates(s string) []string {
	whole := map[int]bool{}
	for _, m := range templatePattern.FindAllStringIndex(s, -1) {
		whole[m[0]] = true
	}
	var out []string
	for at := strings.Index(s, "{{"); at >= 0; {
		if !whole[at] && !whole[at+1] {
			out = append(out, shownStart(s[at:], brokenTemplateShown))
		}
		next := strings.Index(s[at+2:], "{{")
		if next < 0 {
			break
		}
		at += 2 + next
	}
	return out
}

const brokenTemplateShown = 30

// shownStart is s up to n characters, with an ellipsis where it goes on.
func shownStart(s string, n int) string {
	if line, _, cut := strings.Cut(s, "\n"); cut {
		s = line
	}
	if r := []rune(s); len(r) > n {
		return string(r[:n]) + "…"
	}
	return s
}

// Render replaces every {{ path }} in the strings of v (deeply) with values from scope. A
// string that is one template and nothing else takes the value itself, so numbers and
// objects keep their type; elsewhere values are spelled as text. A path that resolves to
// nothing renders as "". Render is pure: the interpreter calls it inside workflow code.
func Render(v any, scope map[string]any) any {
	return mapStrings(v, func(x string) any {
		if m := templatePattern.FindStringSubmatchIndex(x); m != nil && m[0] == 0 && m[1] == len(x) {
			val, _ := Lookup(scope, x[m[2]:m[3]])
			return val
		}
		return templatePattern.ReplaceAllStringFunc(x, func(t string) string {
			val, ok := Lookup(scope, templatePattern.FindStringSubmatch(t)[1])
			if !ok || val == nil {
				return ""
			}
			return fmt.Sprint(val)
		})
	})
}

// Lookup resolves a dotted path in nested maps and slices.
func Lookup(scope map[string]any, path string) (any, bool) {
	var cur any = scope
	for _, part := range strings.Split(path, ".") {
		switch c := cur.(type) {
		case map[string]any:
			v, ok := c[part]
			if !ok {
				return nil, false
			}
			cur = v
		case []any:
			i, err := strconv.Atoi(part)
			if err != nil || i < 0 || i >= len(c) {
				return nil, false
			}
			cur = c[i]
		default:
			return nil, false
		}
	}
	return cur, true
}

// Limits on expressions (a condition's, a switch case's, a data field's): they run inside
// workflow code, so they must be small, and so must what they make.
const (
	maxExpressionLength = 2000
	maxExpressionNodes  = 500
	// MaxExpressionValueBytes bounds the JSON of a value an expression makes (data.set's
	// fields, together), which the run carries in its state and stores with the action.
	MaxExpressionValueBytes = 256 << 10
)

// CompileExpression checks an expression (expr-lang syntax over the same namespaces
// templates use, e.g. `steps.fetch.json.total * 2` or `map(steps.fetch.json.orders, .id)`).
func CompileExpression(text string) error { return compileExpression(text) }

// CompileCondition checks a condition.branch expression, whose value must be a boolean
// (e.g. `steps.fetch.status_code == 200`).
func CompileCondition(text string) error { return compileExpression(text, expr.AsBool()) }

func compileExpression(text string, options ...expr.Option) error {
	if len(text) > maxExpressionLength {
		return fmt.Errorf("the expression is longer than %d characters", maxExpressionLength)
	}
	_, err := expr.Compile(text, append(options, expr.AllowUndefinedVariables(), expr.MaxNodes(maxExpressionNodes))...)
	return err
}

// EvalExpression evaluates an expression against the run's scope. Expressions have no
// loops beyond the data they are given and no access to anything but scope, so evaluation
// is bounded and deterministic. The value comes back as JSON would carry it (numbers as
// float64, lists as []any, maps as map[string]any), as every other action's output does.
func EvalExpression(text string, scope map[string]any) (any, error) {
	out, err := evalExpression(text, scope)
	if err != nil {
		return nil, err
	}
	b, err := json.Marshal(out)
	if err != nil {
		return nil, fmt.Errorf("the value cannot be kept: %w", err)
	}
	var plain any
	if err := json.Unmarshal(b, &plain); err != nil {
		return nil, fmt.Errorf("the value cannot be kept: %w", err)
	}
	return plain, nil
}

// EvalCondition evaluates a condition expression against the run's scope.
func EvalCondition(text string, scope map[string]any) (bool, error) {
	out, err := evalExpression(text, scope, expr.AsBool())
	b, _ := out.(bool)
	return b, err
}

func evalExpression(text string, scope map[string]any, options ...expr.Option) (any, error) {
	if err := compileExpression(text, options...); err != nil {
		return nil, err
	}
	program, err := expr.Compile(text, append(options, expr.Env(scope), expr.AllowUndefinedVariables(), expr.MaxNodes(maxExpressionNodes))...)
	if err != nil {
		return nil, missingOr(err, text, scope)
	}
	out, err := expr.Run(program, scope)
	if err != nil {
		return nil, missingOr(err, text, scope)
	}
	return out, nil
}

// missingOr explains a failed evaluation by the first value the expression reads that the
// scope lacks (or holds as null), since expr's own words for that ("invalid operation:
// <nil> > int") do not say which; else err.
func missingOr(err error, text string, scope map[string]any) error {
	for _, path := range readPaths(text) {
		if v, ok := Lookup(scope, path); !ok || v == nil {
			return &MissingValueError{Path: path}
		}
	}
	return err
}

// readPaths are the dotted paths an expression reads (steps.fetch.json.total), whole
// chains only, in the order they appear.
func readPaths(text string) []string {
	tree, err := parser.Parse(text)
	if err != nil {
		return nil
	}
	var r pathReader
	ast.Walk(&tree.Node, &r)
	var whole []string
	for _, p := range r.paths {
		if !slices.ContainsFunc(r.paths, func(q string) bool { return strings.HasPrefix(q, p+".") }) {
			whole = append(whole, p)
		}
	}
	return whole
}

// pathReader collects the path of every name and member access; ast.Walk visits a chain's
// inner parts first, so steps and steps.fetch come before steps.fetch.status_code.
type pathReader struct{ paths []string }

func (r *pathReader) Visit(node *ast.Node) {
	if p, ok := pathOf(*node); ok && !slices.Contains(r.paths, p) {
		r.paths = append(r.paths, p)
	}
}

func pathOf(node ast.Node) (string, bool) {
	switch n := node.(type) {
	case *ast.IdentifierNode:
		return n.Value, true
	case *ast.ChainNode:
		return pathOf(n.Node)
	case *ast.MemberNode:
		base, ok := pathOf(n.Node)
		if !ok {
			return "", false
		}
		switch p := n.Property.(type) {
		case *ast.StringNode:
			return base + "." + p.Value, true
		case *ast.IntegerNode:
			return base + "." + strconv.Itoa(p.Value), true
		}
	}
	return "", false
}
