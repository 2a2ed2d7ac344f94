/** safeNext keeps a return address on this site, so a crafted link cannot send a person away. */
export function safeNext(next: string | null): string {
  return next && next.startsWith("/") && !next.startsWith("//") && !next.startsWith("/\\") ? next : "/workflows";
}
