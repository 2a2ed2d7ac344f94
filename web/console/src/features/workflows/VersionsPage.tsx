export function VersionsPage() {
  return <h1>VersionsPage</h1>;
}
