// Package aiemployee stores a project's AI employee: its settings and the capability they
// and the chosen model provider give it (the ladder), its chat sessions with their
// messages, tool calls, patch proposals and the ordered session events streams resume
// from, and the cached model lists of model provider integrations. The agent that acts on
// them runs in engine/agent; the model clients are in activities/llm.
package aiemployee
