package automation

import (
	"fmt"
	"slices"
)

// TypeLoop runs the actions of its "each" branch, its body, once per item of a list, in
// child workflows of the run (engine/interpreter_loop.go), then takes "done".
const TypeLoop = "loop.for_each"

// Branches of a loop.for_each: "each" leads into its body, "done" on after every item.
const (
	BranchEach = "each"
	BranchDone = "done"
)

// Loop limits: the items one loop takes, and how many of them run at once.
const (
	MaxLoopItems       = 10000
	MaxLoopConcurrency = 50
)

// loopBodyRefused are the action types a loop's body may not hold: they wait for a signal
// the run's own workflow receives, which an item's does not.
var loopBodyRefused = map[string]bool{TypeBotReply: true, TypeApproval: true}

// LoopBody lists the actions of a loop's body in graph order: those its "each" connections
// lead to, and everything they lead to. A valid graph has no connection into the body from
// outside it (see Validate).
func (g Graph) LoopBody(loopKey string) []string {
	in := map[string]bool{}
	for _, c := range g.Outgoing(loopKey) {
		if c.Branch == BranchEach {
			in[c.To] = true
			for _, k := range g.Downstream(c.To) {
				in[k] = true
			}
		}
	}
	var out []string
	for _, a := range g.Actions {
		if in[a.ActionKey] {
			out = append(out, a.ActionKey)
		}
	}
	return out
}

// inLoops is the set of actions inside any loop's body (an inner loop's body is inside its
// outer loop's).
func (g Graph) inLoops() map[string]bool {
	in := map[string]bool{}
	for _, a := range g.Actions {
		if a.ActionTypeKey == TypeLoop && !in[a.ActionKey] {
			for _, k := range g.LoopBody(a.ActionKey) {
				in[k] = true
			}
		}
	}
	return in
}

// Scheduled is the part of a graph one interpreter steps through: without the actions
// inside any loop's body, nor the connections into or within them, which the loop runs once
// per item.
func (g Graph) Scheduled() Graph {
	inBody := g.inLoops()
	out := Graph{}
	for _, a := range g.Actions {
		if !inBody[a.ActionKey] {
			out.Actions = append(out.Actions, a)
		}
	}
	for _, c := range g.Connections {
		if !inBody[c.From] && !inBody[c.To] && c.Branch != BranchEach {
			out.Connections = append(out.Connections, c)
		}
	}
	return out
}

// BodyGraph is what one item of a loop runs: its body's actions and the connections among
// them, and its entries, the actions the loop's "each" connections lead to.
func (g Graph) BodyGraph(loopKey string) (body Graph, entries []string) {
	in := map[string]bool{}
	for _, k := range g.LoopBody(loopKey) {
		in[k] = true
	}
	for _, a := range g.Actions {
		if in[a.ActionKey] {
			body.Actions = append(body.Actions, a)
		}
	}
	for _, c := range g.Connections {
		switch {
		case c.From == loopKey && c.Branch == BranchEach && !slices.Contains(entries, c.To):
			entries = append(entries, c.To)
		case in[c.From] && in[c.To]:
			body.Connections = append(body.Connections, c)
		}
	}
	return body, entries
}

// ItemKey names one item of a loop in a run: the loop's key in the run and the item's
// index, as in lines[3] or orders[0].lines[3] for an inner loop. The action runs of an
// item's body are keyed ItemKey + "." + action key.
func ItemKey(loopKey string, index int) string { return fmt.Sprintf("%s[%d]", loopKey, index) }

// loops checks what loops require of the graph: a body that connects only to itself, no
// action in it of a type that cannot run per item, and "item" and "loop" read only inside a
// body.
func (v *validator) loops() {
	for _, a := range v.g.Actions {
		if a.ActionTypeKey != TypeLoop {
			continue
		}
		body := map[string]bool{}
		for _, k := range v.g.LoopBody(a.ActionKey) {
			body[k] = true
		}
		for i, c := range v.g.Connections {
			if body[c.To] && !body[c.From] && !(c.From == a.ActionKey && c.Branch == BranchEach) {
				v.add("loop_body_leak", c.From, fmt.Sprintf("connections.%d", i), c.To, a.ActionKey)
			}
		}
	}
	v.inLoop = v.g.inLoops()
	for _, a := range v.g.Actions {
		if v.inLoop[a.ActionKey] && loopBodyRefused[a.ActionTypeKey] {
			v.add("refused_in_loop", a.ActionKey, "action_type_key", a.ActionTypeKey)
		}
	}
}
