import { useQuery } from "@tanstack/react-query";
import { api, data } from "../../api/client";

export const meKey = ["auth", "me"] as const;

/** useMe is the signed-in user; a 401 means nobody is signed in. */
export function useMe() {
  return useQuery({ queryKey: meKey, queryFn: () => data(api.GET("/api/v1/auth/me")), retry: false });
}

// Set while a sign-out waits for the new document to end the session.
const signingOut = "signing-out";

/** signOut leaves the signed-in pages for a new sign-in document (or `then`, a page that
 * offers to sign in), which ends the session (finishSignOut). Ended here, the pages still
 * open would go on asking until the new document replaced them (queries fetching again,
 * streams reconnecting, polls), each answered 401; a new document also keeps nothing of
 * the person who left. */
export function signOut(then = "/sign-in") {
  sessionStorage.setItem(signingOut, "1");
  window.location.replace(then);
}

/** finishSignOut ends the session a sign-out handed to this document, before it renders. */
export async function finishSignOut() {
  if (!sessionStorage.getItem(signingOut)) return;
  sessionStorage.removeItem(signingOut);
  await api.POST("/api/v1/auth/logout").catch(() => undefined);
}
