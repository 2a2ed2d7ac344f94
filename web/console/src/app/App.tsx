import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { RouterProvider } from "react-router";
import { onSessionLost } from "../api/client";
import { ProblemError } from "../api/problem";
import { router, signInPath } from "./router";

const queryClient = new QueryClient({
  defaultOptions: {
    queries: {
      staleTime: 10_000,
      // A Problem that asks the person to fix something, or says the thing is not there,
      // will not change on a retry.
      retry: (count, error) => !(error instanceof ProblemError && error.status < 500) && count < 2,
    },
  },
});

// A session that cannot be refreshed returns to sign-in, and from there to this page.
// The invitation page asks whether someone is signed in and, when nobody is, offers to
// sign in or register itself, so it keeps its place.
const offersSignIn = /^\/invitations\/accept$/;

onSessionLost(() => {
  if (offersSignIn.test(location.pathname)) return;
  queryClient.clear();
  const here = location.pathname + location.search;
  if (!here.startsWith("/sign-in")) void router.navigate(signInPath(here));
});

export function App() {
  return (
    <QueryClientProvider client={queryClient}>
      <RouterProvider router={router} />
    </QueryClientProvider>
  );
}
