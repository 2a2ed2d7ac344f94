package agent

import (
	"slices"
	"testing"

	"agencyhub/schemas"
)

// The catalog's ai.agent config lists exactly the tools an action may be allowed: the
// read tools that need no session.
func TestAgentActionToolsMatchTheCatalog(t *testing.T) {
	c, err := schemas.LoadCatalog()
	if err != nil {
		t.Fatal(err)
	}
	a, _ := c.Action("ai.agent")
	var listed []string
	for _, v := range a.ConfigSchema["properties"].(map[string]any)["tools"].(map[string]any)["items"].(map[string]any)["enum"].([]any) {
		listed = append(listed, v.(string))
	}
	if tools := ActionTools(); !slices.Equal(listed, tools) || slices.Contains(tools, "remember") {
		t.Fatalf("catalog lists %v, the registry allows %v", listed, tools)
	}
	for _, name := range ActionTools() {
		if tool := agentToolsByName()[name]; tool.Risk != RiskRead {
			t.Errorf("%s is allowed in actions with risk %s", name, tool.Risk)
		}
	}
}

func agentToolsByName() map[string]*AgentTool {
	out := map[string]*AgentTool{}
	for _, t := range agentTools() {
		out[t.Name] = t
	}
	return out
}
