/** preview cuts a long text for display; `cut` tells whether anything was left out. */
export function preview(text: string, limit: number): { shown: string; cut: boolean } {
  if (text.length <= limit) return { shown: text, cut: false };
  // A surrogate pair split in two would show as a broken character.
  let end = limit;
  const code = text.charCodeAt(end - 1);
  if (code >= 0xd800 && code <= 0xdbff) end--;
  return { shown: text.slice(0, end), cut: true };
}
