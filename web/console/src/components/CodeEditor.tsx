import CodeMirror, { EditorView, type ReactCodeMirrorProps } from "@uiw/react-codemirror";
import { useMemo } from "react";

// CodeMirror adds its styles in a <style> element, which the console's policy lets in only
// with the nonce the server gave this page (api/console.go), read from the page's
// <meta property="csp-nonce">.
const nonce = EditorView.cspNonce.of(document.querySelector<HTMLMetaElement>('meta[property="csp-nonce"]')?.nonce ?? "");

/** CodeEditor is the one code editor of the console (JSON, templates, patches). */
export function CodeEditor({ extensions, ...props }: ReactCodeMirrorProps) {
  const withNonce = useMemo(() => [nonce, ...(extensions ?? [])], [extensions]);
  return <CodeMirror {...props} extensions={withNonce} />;
}
