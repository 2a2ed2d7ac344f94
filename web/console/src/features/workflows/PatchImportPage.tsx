export function PatchImportPage() {
  return <h1>PatchImportPage</h1>;
}
