package automation

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"maps"
	"slices"
	"strconv"
	"strings"

	"github.com/google/uuid"
	"gorm.io/gorm"
	"gorm.io/gorm/clause"

	"agencyhub/models"
	"agencyhub/schemas"
)

// Operations of the patch format (service-workflow-patch-v1).
const (
	OpUpdateAction         = "update_action"
	OpAddAction            = "add_action"
	OpUpsertAction         = "upsert_action"
	OpDeleteAction         = "delete_action"
	OpAddConnection        = "add_connection"
	OpDeleteConnection     = "delete_connection"
	OpReplaceConnections   = "replace_connections"
	OpSetTestInput         = "set_test_input"
	OpSetChangeDescription = "set_change_description"
)

// Limits of a draft the importer will save; the same as PUT .../draft accepts.
const (
	maxDraftActions     = 500
	maxDraftConnections = 2000
)

// The text scan gives up after maxScanCandidates opening brackets, or once its decoders have
// read scanBudgetFactor times the text, so prose full of brackets (or a long JSON prefix
// behind many of them) costs a bounded amount of decoding.
const (
	maxScanCandidates = 64
	scanBudgetFactor  = 4
)

// Patch is a parsed, schema-valid patch document.
type Patch struct {
	BaseWorkflowID string
	// ChangeDescription is nil when the document has none (the draft's stays).
	ChangeDescription *string
	Operations        []PatchOperation
}

// PatchOperation is one operation; Op says which of the other fields it has.
type PatchOperation struct {
	Op                string        `json:"op"`
	ActionKey         string        `json:"action_key"`
	Set               *ActionChange `json:"set"`
	Action            *Action       `json:"action"`
	DeleteConnections bool          `json:"delete_connections"`
	From              string        `json:"from"`
	To                string        `json:"to"`
	Branch            *string       `json:"branch"`
	// Description is the new edge's description (add_connection) or the change
	// description (set_change_description).
	Description   *string        `json:"description"`
	Connections   []Connection   `json:"connections"`
	TestInputJSON map[string]any `json:"test_input_json"`
}

// ActionChange is update_action's set: absent fields stay.
type ActionChange struct {
	Label         *string        `json:"label"`
	ActionTypeKey *string        `json:"action_type_key"`
	Category      *string        `json:"category"`
	TypeLabel     *string        `json:"type_label"`
	Config        map[string]any `json:"config"`
	UI            *ActionUI      `json:"ui"`
}

type patchDocument struct {
	BaseWorkflowID    string           `json:"base_workflow_id"`
	ChangeDescription *string          `json:"change_description"`
	Operations        []PatchOperation `json:"operations"`
}

// ParsePatch finds the patch in what an AI editor answered and checks it against the patch
// schema. The input may be JSON (minified or pretty), a JSON string holding the answer, a
// fenced ```json block, or text around the first JSON object or array that decodes. The
// JSON may be a whole document, one operation object or an array of operations; the last
// two are imported as a patch of workflowID. Errors: invalid (body when no JSON is found;
// the schema's fields, e.g. operations.2.action.action_key; base_workflow_id when the patch
// was written for another workflow).
func ParsePatch(input []byte, workflowID uuid.UUID) (*Patch, error) {
	schema, err := schemas.LoadWorkflowPatchSchema()
	if err != nil {
		return nil, models.Internal("patch schema: %w", err)
	}
	value, ok := findPatchJSON(input, true)
	if !ok {
		return nil, models.Invalid("patch_not_found", "body")
	}
	doc := asPatchDocument(value, workflowID)
	if fields := schema.Validate(doc); len(fields) > 0 {
		return nil, models.Invalid("patch_invalid", fields...)
	}
	raw, err := json.Marshal(doc)
	if err != nil {
		return nil, models.Internal("re-encode patch: %w", err)
	}
	var pd patchDocument
	if err := json.Unmarshal(raw, &pd); err != nil {
		return nil, models.Internal("schema-valid patch does not decode: %w", err)
	}
	if base, err := uuid.Parse(pd.BaseWorkflowID); err != nil || base != workflowID {
		return nil, models.Invalid("patch_wrong_workflow", "base_workflow_id")
	}
	return &Patch{BaseWorkflowID: pd.BaseWorkflowID, ChangeDescription: pd.ChangeDescription, Operations: pd.Operations}, nil
}

// findPatchJSON returns the JSON value the input carries. unquote allows one level of a
// JSON string holding the text (a JSON body that quotes the AI's answer).
func findPatchJSON(input []byte, unquote bool) (any, bool) {
	if v, ok := decodeWhole(input); ok {
		switch x := v.(type) {
		case map[string]any, []any:
			return v, true
		case string:
			if unquote {
				return findPatchJSON([]byte(x), false)
			}
		}
		return nil, false
	}
	for _, block := range fencedBlocks(input) {
		if v, ok := decodeWhole(block); ok && plausiblePatch(v) {
			return v, true
		}
	}
	return scanForJSON(input)
}

// decodeWhole decodes input as exactly one JSON value, numbers kept as json.Number.
func decodeWhole(input []byte) (any, bool) {
	dec := json.NewDecoder(bytes.NewReader(input))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		return nil, false
	}
	if _, err := dec.Token(); err != io.EOF {
		return nil, false
	}
	return v, true
}

// fencedBlocks lists the contents of ``` fences in order; the info string after the
// opening fence (json, JSON, jsonc…) is skipped. An unclosed fence runs to the end.
func fencedBlocks(input []byte) [][]byte {
	const fence = "```"
	var out [][]byte
	rest := input
	for {
		start := bytes.Index(rest, []byte(fence))
		if start < 0 {
			return out
		}
		rest = rest[start+len(fence):]
		info := 0
		for info < len(rest) && isInfoByte(rest[info]) {
			info++
		}
		body := rest[info:]
		end := bytes.Index(body, []byte(fence))
		if end < 0 {
			return append(out, body)
		}
		out = append(out, body[:end])
		rest = body[end+len(fence):]
	}
}

func isInfoByte(b byte) bool {
	return b >= 'a' && b <= 'z' || b >= 'A' && b <= 'Z' || b >= '0' && b <= '9' || b == '-' || b == '_' || b == '+'
}

// scanForJSON returns the first object, or array of objects, that decodes from an opening
// bracket of the text; whatever follows it is ignored.
func scanForJSON(input []byte) (any, bool) {
	tries, budget := 0, scanBudgetFactor*len(input)+64<<10
	for i := 0; i < len(input) && tries < maxScanCandidates && budget > 0; i++ {
		if input[i] != '{' && input[i] != '[' {
			continue
		}
		tries++
		dec := json.NewDecoder(&budgetReader{r: bytes.NewReader(input[i:]), left: &budget})
		dec.UseNumber()
		var v any
		if err := dec.Decode(&v); err != nil {
			continue
		}
		if plausiblePatch(v) {
			return v, true
		}
		// A JSON value that is not a patch ([1] in prose): its inner brackets are not either.
		i += int(dec.InputOffset()) - 1
	}
	return nil, false
}

// budgetReader reads from r until the shared budget is spent, then reports the end.
type budgetReader struct {
	r    io.Reader
	left *int
}

func (b *budgetReader) Read(p []byte) (int, error) {
	if *b.left <= 0 {
		return 0, io.EOF
	}
	if len(p) > *b.left {
		p = p[:*b.left]
	}
	n, err := b.r.Read(p)
	*b.left -= n
	return n, err
}

// plausiblePatch tells whether a value found in text can be a patch: an object, or a
// non-empty array of objects.
func plausiblePatch(v any) bool {
	switch x := v.(type) {
	case map[string]any:
		return true
	case []any:
		if len(x) == 0 {
			return false
		}
		for _, e := range x {
			if _, ok := e.(map[string]any); !ok {
				return false
			}
		}
		return true
	}
	return false
}

// asPatchDocument wraps one operation, or an array of them, into a document for workflowID.
func asPatchDocument(v any, workflowID uuid.UUID) any {
	wrap := func(ops []any) map[string]any {
		return map[string]any{
			"format": schemas.WorkflowPatchFormat, "schema_version": json.Number(strconv.Itoa(schemas.WorkflowPatchVersion)),
			"base_workflow_id": workflowID.String(), "operations": ops,
		}
	}
	switch x := v.(type) {
	case []any:
		return wrap(x)
	case map[string]any:
		if _, isOperation := x["op"]; isOperation {
			return wrap([]any{x})
		}
	}
	return v
}

// ProjectIntegration is an integration of the workflow's project as the importer sees it:
// what an action's dependency field may name.
type ProjectIntegration struct {
	ID, TypeKey, Name string
	Active            bool
}

// AppliedOperation reports what one operation did.
type AppliedOperation struct {
	Index     int    `json:"index"`
	Op        string `json:"op"`
	ActionKey string `json:"action_key,omitempty"`
	From      string `json:"from,omitempty"`
	To        string `json:"to,omitempty"`
	// Effect is added, updated, deleted, replaced, set or unchanged.
	Effect string `json:"effect"`
}

// Effects of an applied operation.
const (
	EffectAdded     = "added"
	EffectUpdated   = "updated"
	EffectDeleted   = "deleted"
	EffectReplaced  = "replaced"
	EffectSet       = "set"
	EffectUnchanged = "unchanged"
)

// PatchResult is the draft a patch produced and what to tell about it.
type PatchResult struct {
	Draft   Draft
	Applied []AppliedOperation
	// Diagnostics are the patch's own notes (integrations left empty, operations that
	// changed nothing) followed by the validation of the resulting draft.
	Diagnostics []Diagnostic
}

// ApplyPatch applies the operations in order to a copy of d; d itself is never changed.
// Every operation is checked against the draft as the earlier ones left it: action types
// must be importable, configs (merged, for update_action) must match their schemas and
// conditions compile, connections must join actions that exist by then. An integration id
// in an action's dependency field is kept only when it names an integration of the right
// type in integrations; otherwise it is emptied and a diagnostic says so. When any
// operation fails, nothing is applied and the error names every failing field
// (operations.<n>.<field>). The resulting draft is normalized: category and type_label
// from the catalog, an empty label becomes the type's name, and actions without a
// position are placed. Errors: invalid.
func ApplyPatch(d Draft, p *Patch, catalog *schemas.Catalog, integrations []ProjectIntegration) (PatchResult, error) {
	pt := &patcher{
		catalog: catalog, integrations: map[string]ProjectIntegration{},
		actions:     make([]Action, 0, len(d.Graph.Actions)),
		connections: slices.Clone(d.Graph.Connections),
		testInput:   cloneObject(d.TestInput),
		description: d.ChangeDescription,
		touched:     map[string][]Diagnostic{},
	}
	for _, in := range integrations {
		pt.integrations[strings.ToLower(in.ID)] = in
	}
	for _, a := range d.Graph.Actions {
		pt.actions = append(pt.actions, cloneAction(a))
	}
	if p.ChangeDescription != nil {
		pt.description = *p.ChangeDescription
	}
	for i, op := range p.Operations {
		pt.apply(i, op)
	}
	if len(pt.actions) > maxDraftActions || len(pt.connections) > maxDraftConnections {
		pt.reject("operations")
	}
	if len(pt.rejected) > 0 {
		return PatchResult{}, models.Invalid("patch_rejected", pt.rejected...)
	}
	pt.normalize()
	g := Graph{Actions: pt.actions, Connections: pt.connections}
	if g.Connections == nil {
		g.Connections = []Connection{}
	}
	notes := pt.notes
	for _, a := range g.Actions {
		notes = append(notes, pt.touched[a.ActionKey]...)
	}
	return PatchResult{
		Draft:       Draft{Graph: g, TestInput: pt.testInput, ChangeDescription: pt.description},
		Applied:     pt.applied,
		Diagnostics: append(notes, Validate(g, catalog)...),
	}, nil
}

type patcher struct {
	catalog      *schemas.Catalog
	integrations map[string]ProjectIntegration
	actions      []Action
	connections  []Connection
	testInput    map[string]any
	description  string
	rejected     []string
	applied      []AppliedOperation
	notes        []Diagnostic
	// touched holds, per action the patch added or changed, the notes about its integration.
	touched map[string][]Diagnostic
}

func (pt *patcher) reject(field string) {
	if !slices.Contains(pt.rejected, field) {
		pt.rejected = append(pt.rejected, field)
	}
}

func warning(code, actionKey, field string, args ...any) Diagnostic {
	d := Diagnosed(SeverityWarning, code, code, args...)
	d.ActionKey, d.Field = actionKey, field
	return d
}

func (pt *patcher) index(key string) int {
	return slices.IndexFunc(pt.actions, func(a Action) bool { return a.ActionKey == key })
}

func (pt *patcher) done(i int, op PatchOperation, effect string) {
	pt.applied = append(pt.applied, AppliedOperation{Index: i, Op: op.Op, ActionKey: op.ActionKey, From: op.From, To: op.To, Effect: effect})
}

func (pt *patcher) apply(i int, op PatchOperation) {
	at := fmt.Sprintf("operations.%d", i)
	switch op.Op {
	case OpUpdateAction:
		pt.updateAction(i, at, op)
	case OpAddAction, OpUpsertAction:
		pt.addAction(i, at, op)
	case OpDeleteAction:
		pt.deleteAction(i, at, op)
	case OpAddConnection:
		pt.addConnection(i, at, op)
	case OpDeleteConnection:
		pt.deleteConnection(i, at, op)
	case OpReplaceConnections:
		pt.replaceConnections(i, at, op)
	case OpSetTestInput:
		pt.testInput = cloneObject(op.TestInputJSON)
		pt.done(i, op, EffectSet)
	case OpSetChangeDescription:
		if op.Description != nil {
			pt.description = *op.Description
		}
		pt.done(i, op, EffectSet)
	default:
		pt.reject(at + ".op")
	}
}

func (pt *patcher) updateAction(i int, at string, op PatchOperation) {
	idx := pt.index(op.ActionKey)
	if idx < 0 {
		pt.reject(at + ".action_key")
		return
	}
	if op.Set == nil {
		pt.reject(at + ".set")
		return
	}
	a := cloneAction(pt.actions[idx])
	set := op.Set
	if set.Label != nil {
		a.Label = *set.Label
	}
	if set.ActionTypeKey != nil {
		a.ActionTypeKey = *set.ActionTypeKey
	}
	if set.Category != nil {
		a.Category = *set.Category
	}
	if set.TypeLabel != nil {
		a.TypeLabel = *set.TypeLabel
	}
	if set.Config != nil {
		a.Config = mergeObject(a.Config, set.Config)
	}
	if set.UI != nil {
		a.UI = cloneUI(set.UI)
	}
	if !pt.checkAction(&a, at+".set") {
		return
	}
	pt.actions[idx] = a
	pt.done(i, op, EffectUpdated)
}

func (pt *patcher) addAction(i int, at string, op PatchOperation) {
	if op.Action == nil {
		pt.reject(at + ".action")
		return
	}
	a := cloneAction(*op.Action)
	op.ActionKey = a.ActionKey
	idx := pt.index(a.ActionKey)
	if idx >= 0 && op.Op == OpAddAction {
		pt.reject(at + ".action.action_key")
		return
	}
	if !pt.checkAction(&a, at+".action") {
		return
	}
	if idx < 0 {
		pt.actions = append(pt.actions, a)
		pt.done(i, op, EffectAdded)
		return
	}
	if a.UI == nil || a.UI.Position == nil {
		a.UI = pt.actions[idx].UI
	}
	pt.actions[idx] = a
	pt.done(i, op, EffectUpdated)
}

func (pt *patcher) deleteAction(i int, at string, op PatchOperation) {
	idx := pt.index(op.ActionKey)
	if idx < 0 {
		pt.reject(at + ".action_key")
		return
	}
	touches := func(c Connection) bool { return c.From == op.ActionKey || c.To == op.ActionKey }
	if slices.ContainsFunc(pt.connections, touches) {
		if !op.DeleteConnections {
			pt.reject(at + ".delete_connections")
			return
		}
		pt.connections = slices.DeleteFunc(pt.connections, touches)
	}
	pt.actions = slices.Delete(pt.actions, idx, idx+1)
	delete(pt.touched, op.ActionKey)
	pt.done(i, op, EffectDeleted)
}

// joins checks that a connection's ends exist, rejecting the fields that name none.
func (pt *patcher) joins(c Connection, at string) bool {
	ok := true
	if pt.index(c.From) < 0 {
		pt.reject(at + ".from")
		ok = false
	}
	if pt.index(c.To) < 0 {
		pt.reject(at + ".to")
		ok = false
	}
	return ok
}

func (pt *patcher) addConnection(i int, at string, op PatchOperation) {
	c := Connection{From: op.From, To: op.To}
	if op.Branch != nil {
		c.Branch = *op.Branch
	}
	if op.Description != nil {
		c.Description = *op.Description
	}
	if !pt.joins(c, at) {
		return
	}
	if slices.ContainsFunc(pt.connections, func(e Connection) bool { return e.From == c.From && e.To == c.To && e.Branch == c.Branch }) {
		pt.notes = append(pt.notes, warning("connection_exists", c.From, at, i, c.From, c.To, c.Branch))
		pt.done(i, op, EffectUnchanged)
		return
	}
	pt.connections = append(pt.connections, c)
	pt.done(i, op, EffectAdded)
}

func (pt *patcher) deleteConnection(i int, at string, op PatchOperation) {
	before := len(pt.connections)
	pt.connections = slices.DeleteFunc(pt.connections, func(c Connection) bool {
		return c.From == op.From && c.To == op.To && (op.Branch == nil || c.Branch == *op.Branch)
	})
	if len(pt.connections) == before {
		pt.notes = append(pt.notes, warning("connection_not_found", op.From, at, i, op.From, op.To))
		pt.done(i, op, EffectUnchanged)
		return
	}
	pt.done(i, op, EffectDeleted)
}

func (pt *patcher) replaceConnections(i int, at string, op PatchOperation) {
	ok := true
	for j, c := range op.Connections {
		if !pt.joins(c, fmt.Sprintf("%s.connections.%d", at, j)) {
			ok = false
		}
	}
	if !ok {
		return
	}
	pt.connections = slices.Clone(op.Connections)
	if pt.connections == nil {
		pt.connections = []Connection{}
	}
	pt.done(i, op, EffectReplaced)
}

// checkAction checks a new or changed action against the catalog, empties an integration
// id the project cannot lend it, and records the action as touched. at is where the
// action's fields are in the patch (operations.<n>.action or operations.<n>.set).
func (pt *patcher) checkAction(a *Action, at string) bool {
	t, ok := pt.catalog.Action(a.ActionTypeKey)
	if !ok || !t.Importable {
		pt.reject(at + ".action_type_key")
		return false
	}
	if a.Config == nil {
		a.Config = map[string]any{}
	}
	notes := pt.checkIntegration(a, t)
	valid := true
	for _, field := range t.ValidateConfig(a.Config) {
		if field == t.DependencyField && emptyDependency(a.Config, field) {
			continue // left for the user to choose; validation of the draft reports it
		}
		pt.reject(at + ".config." + field)
		valid = false
	}
	if text, _ := a.Config["text"].(string); a.ActionTypeKey == TypeCondition && text != "" {
		if err := CompileCondition(text); err != nil {
			pt.reject(at + ".config.text")
			valid = false
		}
	}
	if valid {
		pt.touched[a.ActionKey] = notes
	}
	return valid
}

func emptyDependency(config map[string]any, field string) bool {
	v, ok := config[field]
	return !ok || v == ""
}

// checkIntegration applies the rule that integration identifiers are never invented: an
// id is kept only when it names an integration of the project of the type the action
// needs; any other is emptied. It answers the notes for the action.
func (pt *patcher) checkIntegration(a *Action, t *schemas.ActionType) []Diagnostic {
	field := t.DependencyField
	if field == "" {
		return nil
	}
	configField := "config." + field
	id, isString := a.Config[field].(string)
	if _, present := a.Config[field]; present && !isString {
		return nil // not an id at all: the config schema rejects it
	}
	if id != "" {
		in, ok := pt.integrations[strings.ToLower(id)]
		switch {
		case !ok || in.TypeKey != t.DependencyTypeKey:
			a.Config[field] = ""
			return []Diagnostic{warning("integration_not_available", a.ActionKey, configField,
				configField, id, t.DependencyTypeKey, pt.candidates(t.DependencyTypeKey))}
		case !in.Active:
			return []Diagnostic{warning("integration_disabled", a.ActionKey, configField, in.Name, in.ID)}
		}
		return nil
	}
	if !t.RequiresDependency {
		return nil
	}
	return []Diagnostic{warning("integration_required", a.ActionKey, configField,
		a.ActionTypeKey, t.DependencyTypeKey, configField, pt.candidates(t.DependencyTypeKey))}
}

// candidates names the project's integrations of a type, for a diagnostic's message.
func (pt *patcher) candidates(typeKey string) candidateList {
	names := candidateList{}
	for _, key := range slices.Sorted(maps.Keys(pt.integrations)) {
		if in := pt.integrations[key]; in.TypeKey == typeKey {
			names = append(names, fmt.Sprintf("%q (%s)", in.Name, in.ID))
		}
	}
	return names
}

// normalize fills what the catalog knows into the touched actions and places every action
// that has no position.
func (pt *patcher) normalize() {
	for i := range pt.actions {
		a := &pt.actions[i]
		if _, touched := pt.touched[a.ActionKey]; !touched {
			continue
		}
		if t, ok := pt.catalog.Action(a.ActionTypeKey); ok {
			a.Category, a.TypeLabel = t.Category, t.DisplayName
			if strings.TrimSpace(a.Label) == "" {
				a.Label = t.DisplayName
			}
		}
	}
	placeActions(Graph{Actions: pt.actions, Connections: pt.connections})
}

// Canvas grid of auto-placed actions.
const (
	placeLeft, placeTop = 80.0, 80.0
	placeColumn         = 280.0
	placeRow            = 160.0
)

// placeActions gives every action of g without a position one: its column is its depth
// (the longest chain of connections leading to it), its row the first free one in that
// column. Placed actions keep theirs. The actions are changed in place.
func placeActions(g Graph) {
	depth := map[string]int{}
	for _, a := range g.Actions {
		depth[a.ActionKey] = 0
	}
	// Relax at most len(actions) times: enough for every acyclic chain, and a cycle stops.
	for range g.Actions {
		changed := false
		for _, c := range g.Connections {
			d, fromOK := depth[c.From]
			_, toOK := depth[c.To]
			if fromOK && toOK && depth[c.To] < d+1 && d+1 < len(g.Actions) {
				depth[c.To] = d + 1
				changed = true
			}
		}
		if !changed {
			break
		}
	}
	taken := map[int][]float64{}
	for _, a := range g.Actions {
		if a.UI != nil && a.UI.Position != nil {
			col := int((a.UI.Position.X - placeLeft + placeColumn/2) / placeColumn)
			taken[col] = append(taken[col], a.UI.Position.Y)
		}
	}
	for i := range g.Actions {
		a := &g.Actions[i]
		if a.UI != nil && a.UI.Position != nil {
			continue
		}
		col := depth[a.ActionKey]
		y := placeTop
		for slices.ContainsFunc(taken[col], func(t float64) bool { return t > y-placeRow/2 && t < y+placeRow/2 }) {
			y += placeRow
		}
		taken[col] = append(taken[col], y)
		if a.UI == nil {
			a.UI = &ActionUI{}
		}
		a.UI.Position = &Position{X: placeLeft + float64(col)*placeColumn, Y: y}
	}
}

// mergeObject applies a JSON merge patch (RFC 7386) to a copy of target: objects merge
// recursively, null removes a field, any other value replaces it.
func mergeObject(target, patch map[string]any) map[string]any {
	out := cloneObject(target)
	for k, v := range patch {
		switch pv := v.(type) {
		case nil:
			delete(out, k)
		case map[string]any:
			current, _ := out[k].(map[string]any)
			out[k] = mergeObject(current, pv)
		default:
			out[k] = cloneValue(v)
		}
	}
	return out
}

func cloneAction(a Action) Action {
	a.Config = cloneObject(a.Config)
	a.UI = cloneUI(a.UI)
	return a
}

func cloneUI(ui *ActionUI) *ActionUI {
	if ui == nil {
		return nil
	}
	out := &ActionUI{}
	if ui.Position != nil {
		p := *ui.Position
		out.Position = &p
	}
	return out
}

func cloneObject(m map[string]any) map[string]any {
	out := make(map[string]any, len(m))
	for k, v := range m {
		out[k] = cloneValue(v)
	}
	return out
}

func cloneValue(v any) any {
	switch x := v.(type) {
	case map[string]any:
		return cloneObject(x)
	case []any:
		out := make([]any, len(x))
		for i, e := range x {
			out[i] = cloneValue(e)
		}
		return out
	}
	return v
}

// ImportPatch applies a patch to the workflow's draft and saves it, in one transaction
// that reads the draft under a row lock, so a concurrent edit is neither lost nor mixed
// in. It never publishes. The workflow's stored row changes only when every operation
// applies. Errors: invalid (ApplyPatch's), not_found (the workflow is gone).
func (s *Service) ImportPatch(ctx context.Context, w *Workflow, p *Patch,
	integrations []ProjectIntegration) (*Workflow, PatchResult, error) {
	var out Workflow
	var result PatchResult
	err := s.DB.WithContext(ctx).Transaction(func(tx *gorm.DB) error {
		err := tx.Clauses(clause.Locking{Strength: "UPDATE"}).Take(&out, "id = ? AND company_id = ?", w.ID, w.CompanyID).Error
		if models.IsNotFound(err) {
			return models.NotFound("workflow_not_found")
		}
		if err != nil {
			return models.Internal("read workflow: %w", err)
		}
		result, err = ApplyPatch(out.Draft(), p, s.Catalog, integrations)
		if err != nil {
			return err
		}
		d := result.Draft
		now := s.now()
		saved, err := saveDraft(tx, w, nil, map[string]any{
			"draft_actions": marshal(d.Graph.Actions), "draft_connections": marshal(d.Graph.Connections),
			"draft_test_input": marshal(d.TestInput), "draft_change_description": d.ChangeDescription,
			"draft_updated_at": now, "updated_at": now,
		})
		if err != nil {
			return err
		}
		out = *saved
		return nil
	})
	if err != nil {
		return nil, PatchResult{}, err
	}
	return &out, result, nil
}
