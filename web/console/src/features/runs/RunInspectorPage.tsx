export function RunInspectorPage() {
  return <h1>RunInspectorPage</h1>;
}
