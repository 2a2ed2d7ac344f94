import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useEffect, useRef } from "react";
import { useTranslation } from "react-i18next";
import { Link, useNavigate, useSearchParams } from "react-router";
import { api, data } from "../../api/client";
import { ProblemError } from "../../api/problem";
import { ProblemAlert } from "../../components/ProblemAlert";
import { AuthFrame } from "./AuthFrame";
import { signOut, useMe } from "./session";
import "./texts";

/** InvitationAcceptPage is where an invitation link opens. A signed-out person sees who
 * invites them to which company and signs in or registers with the invited e-mail, coming
 * back here; signed in, the invitation is accepted and they land in the company. */
export function InvitationAcceptPage() {
  const { t } = useTranslation("auth");
  const [params] = useSearchParams();
  const token = params.get("token") ?? "";
  const me = useMe();
  const invitation = useQuery({
    queryKey: lookupKey(token),
    queryFn: () => data(api.POST("/api/v1/invitations/lookup", { body: { token } })),
    enabled: token !== "",
    retry: false,
  });
  if (!token) {
    return (
      <AuthFrame title={t("invitationTitle")}>
        <p>{t("invitationNoToken")}</p>
      </AuthFrame>
    );
  }
  if (invitation.error) {
    return (
      <AuthFrame title={t("invitationTitle")}>
        <ProblemAlert error={invitation.error} />
        <p>
          <Link to="/sign-in">{t("signIn")}</Link>
        </p>
      </AuthFrame>
    );
  }
  if (!invitation.data || me.isPending) {
    return (
      <AuthFrame title={t("invitationTitle")}>
        <p className="muted">{t("invitationLoading")}</p>
      </AuthFrame>
    );
  }
  const inv = invitation.data;
  const signedOut = me.error instanceof ProblemError && me.error.status === 401;
  const here = `/invitations/accept?token=${encodeURIComponent(token)}`;
  const withInvite = `?email=${encodeURIComponent(inv.email)}&next=${encodeURIComponent(here)}`;
  return (
    <AuthFrame title={t("invitationTitle")}>
      <p>{t("invitationFrom", { inviter: inv.invited_by_name, company: inv.company_name, role: t(`invitedAs_${inv.role}`) })}</p>
      {me.error && !signedOut && <ProblemAlert error={me.error} />}
      {signedOut && (
        <>
          <p>{t("invitationSignIn", { email: inv.email })}</p>
          <div className="stack">
            <Link className="button primary" to={`/register${withInvite}`}>
              {t("register")}
            </Link>
            <Link className="button" to={`/sign-in${withInvite}`}>
              {t("signIn")}
            </Link>
          </div>
        </>
      )}
      {me.data && <AcceptInvitation token={token} />}
    </AuthFrame>
  );
}

const lookupKey = (token: string) => ["invitations", "lookup", token];

/** AcceptInvitation accepts once, on arrival, and enters the company. */
function AcceptInvitation({ token }: { token: string }) {
  const { t } = useTranslation("auth");
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const accept = useMutation({
    mutationFn: () => data(api.POST("/api/v1/invitations/accept", { body: { token } })),
    onSuccess: async () => {
      // The active company changed: every cached page of the old one is stale. All but the
      // invitation's lookup, which this page still shows: accepting used its token up, so
      // a refetch would only be refused (400).
      const lookup = lookupKey(token);
      await queryClient.invalidateQueries({ predicate: (q) => !lookup.every((part, i) => q.queryKey[i] === part) });
      void navigate("/workflows", { replace: true });
    },
  });
  const started = useRef(false);
  useEffect(() => {
    if (started.current) return;
    started.current = true;
    accept.mutate();
  }, [accept]);
  if (accept.error) {
    return (
      <>
        <ProblemAlert error={accept.error} />
        {/* Signed out, this page offers to sign in or register with the invited e-mail. */}
        <button type="button" onClick={() => signOut(location.pathname + location.search)}>
          {t("invitationOtherAccount")}
        </button>
      </>
    );
  }
  return <p className="muted">{t("invitationJoining")}</p>;
}
