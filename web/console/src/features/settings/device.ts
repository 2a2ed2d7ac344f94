import Bowser from "bowser";

/** deviceOf reads a session's device label. The default label is the User-Agent of the
 * sign-in, which a person cannot read: it answers the browser (with its major version) and
 * the system it names; a label that is no User-Agent (a desktop app's) answers undefined. */
export function deviceOf(label: string): { browser: string; os: string } | undefined {
  const { browser, os } = Bowser.parse(label);
  if (!browser.name) return undefined;
  const major = browser.version?.split(".")[0];
  return { browser: major ? `${browser.name} ${major}` : browser.name, os: os.name ?? "" };
}
