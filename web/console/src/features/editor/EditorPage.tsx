export function EditorPage() {
  return <h1>EditorPage</h1>;
}
