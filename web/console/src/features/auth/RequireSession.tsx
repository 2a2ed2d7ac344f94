import { Navigate, Outlet, useLocation } from "react-router";
import { ProblemError } from "../../api/problem";
import { ProblemAlert } from "../../components/ProblemAlert";
import { signInPath } from "../../app/router";
import { Loading } from "../../app/Loading";
import { useMe } from "./session";

/** RequireSession shows its pages to a signed-in person and sends anyone else to sign in. */
export function RequireSession() {
  const me = useMe();
  const here = useLocation();
  if (me.isPending) return <Loading />;
  if (me.error instanceof ProblemError && me.error.status === 401) {
    return <Navigate to={signInPath(here.pathname + here.search)} replace />;
  }
  if (me.error) return <ProblemAlert error={me.error} />;
  return <Outlet />;
}
