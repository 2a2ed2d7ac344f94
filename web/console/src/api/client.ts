// The one typed client of /api/v1. Its types are generated from schemas/openapi.yaml
// (`npm run gen`), so a contract change the console does not follow fails the type check.
import createClient, { type Middleware } from "openapi-fetch";
import type { paths } from "./schema.gen";
import { ProblemError, readProblem } from "./problem";

const unsafe = new Set(["POST", "PUT", "PATCH", "DELETE"]);

export function cookie(name: string): string | undefined {
  for (const part of document.cookie.split("; ")) {
    const eq = part.indexOf("=");
    if (part.slice(0, eq) === name) return decodeURIComponent(part.slice(eq + 1));
  }
  return undefined;
}

let language = "en";
/** setLanguage makes every later request ask for texts in that language. */
export function setLanguage(lang: string) {
  language = lang;
}

// A browser session: the cookies carry the access token; unsafe requests repeat the
// app_csrf cookie in X-CSRF-Token (the double submit the API checks).
function withSession(request: Request): Request {
  request.headers.set("Accept-Language", language);
  if (unsafe.has(request.method)) {
    const csrf = cookie("app_csrf");
    if (csrf) request.headers.set("X-CSRF-Token", csrf);
  }
  return request;
}

// One refresh at a time: requests that meet an expired access token together wait for it.
let refreshing: Promise<boolean> | null = null;

async function refreshSession(): Promise<boolean> {
  const csrf = await fetch("/api/v1/auth/refresh/csrf", { credentials: "same-origin" });
  if (!csrf.ok) return false;
  const { csrf_token } = (await csrf.json()) as { csrf_token: string };
  const res = await fetch("/api/v1/auth/refresh", {
    method: "POST",
    credentials: "same-origin",
    headers: { "Content-Type": "application/json", "X-CSRF-Token": csrf_token },
    body: "{}",
  });
  return res.ok;
}

/** refreshOnce refreshes the session, sharing one refresh among concurrent callers. */
export function refreshOnce(): Promise<boolean> {
  refreshing ??= refreshSession().finally(() => {
    refreshing = null;
  });
  return refreshing;
}

type Unauthenticated = () => void;
let onSignedOut: Unauthenticated = () => {};
/** onSessionLost sets what happens when a session cannot be refreshed. */
export function onSessionLost(f: Unauthenticated) {
  onSignedOut = f;
}

const noRefresh = /^\/api\/v1\/auth\/(login|register|refresh|activate|password-reset)/;

const session: Middleware = {
  onRequest({ request }) {
    return withSession(request);
  },
  async onResponse({ request, response, options }) {
    const path = new URL(request.url).pathname;
    if (response.status !== 401 || noRefresh.test(path)) return response;
    if (!(await refreshOnce())) {
      onSignedOut();
      return response;
    }
    const retry = withSession(new Request(request));
    return options.fetch(retry);
  },
};

// Bodies are cloned before the first try so that the retry after a refresh can send them
// again: a Request's body can be read once.
const replayableFetch = (input: Request) => fetch(input.clone());

// The contract's list parameters (`status=active,archived`) are comma-separated: every array
// in a query is `style: form, explode: false` there.
export const api = createClient<paths>({
  baseUrl: "",
  credentials: "same-origin",
  fetch: replayableFetch,
  querySerializer: { array: { style: "form", explode: false } },
});
api.use(session);

/** A part of a multipart body: a text or a file (a File sends its name). */
type Part = string | Blob;

/** multipart is an upload's body and serializer, to spread into a request's options. The
 * contract's multipart bodies type a file part as a string (format: binary), and so do the
 * generated types: the body the type checker sees holds "" in each file's place, and the
 * form the browser sends holds the files. */
export function multipart<P extends Record<string, Part>>(parts: P) {
  const form = new FormData();
  const body: Record<string, string> = {};
  for (const [name, part] of Object.entries(parts)) {
    form.append(name, part);
    body[name] = typeof part === "string" ? part : "";
  }
  return { body: body as { [K in keyof P]: P[K] extends string ? P[K] : string }, bodySerializer: () => form };
}

/** data returns a response's body, or throws its Problem, for TanStack Query's functions. */
export async function data<T>(call: Promise<{ data?: T; error?: unknown; response: Response }>): Promise<T> {
  const { data, error, response } = await call;
  if (error !== undefined || !response.ok) throw await readProblem(response, error);
  return data as T;
}

export { ProblemError };
