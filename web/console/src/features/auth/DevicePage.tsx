export function DevicePage() {
  return <h1>DevicePage</h1>;
}
