// Package llm is the model client of the AI employee and the ai.agent action: the
// OpenAI-compatible chat completions protocol (POST {base_url}/chat/completions, streamed
// as server-sent events, with function tools; GET {base_url}/models), which OpenAI and the
// local servers (llama.cpp, vLLM, Ollama) all speak, spoken through the official Go SDK
// (openai-go). It calls through the HTTP client it is given, which is the egress client:
// the base URL is the user's choice. docs/ai-employee.md says why the SDK, and how it is
// held to one provider.
package llm
