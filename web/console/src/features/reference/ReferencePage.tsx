import { useDeferredValue, useEffect, useMemo, useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import { Link, useLocation } from "react-router";
import { LanguageSelect } from "../../components/LanguageSelect";
import { MarkBadges, OperationView } from "./OperationView";
import { Prose } from "./Prose";
import { reference } from "./reference.gen";
import { BodyView } from "./SchemaView";
import { filterTags } from "./search";
import "./reference.css";
import "./texts";

const total = reference.tags.reduce((n, tag) => n + tag.operations.length, 0);

/** useHashTarget brings the operation the address names (#operationId) into view and
 * gives it the focus, on arrival and on every link to another one. */
function useHashTarget() {
  const { hash } = useLocation();
  useEffect(() => {
    if (!hash) return;
    const target = document.getElementById(decodeURIComponent(hash.slice(1)));
    if (!target) return;
    target.scrollIntoView();
    target.focus({ preventScroll: true });
  }, [hash]);
}

/** ReferencePage is the API reference for people (/reference): every operation of the
 * contract by tag, a search that narrows the list and the page, and a link to each one.
 * Its content is the contract's English; the page's own words are the person's language. */
export function ReferencePage() {
  const { t, i18n } = useTranslation("reference");
  const tc = useTranslation().t;
  const [query, setQuery] = useState("");
  const search = useRef<HTMLInputElement>(null);
  const deferred = useDeferredValue(query);
  const tags = useMemo(() => filterTags(reference.tags, deferred), [deferred]);
  const shown = tags.reduce((n, tag) => n + tag.operations.length, 0);
  useHashTarget();

  // "/" brings the person back to the search box from anywhere but a field.
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      const field = e.target instanceof HTMLElement && e.target.closest("input, textarea, select, [contenteditable]");
      if (e.key === "/" && !field && !e.ctrlKey && !e.metaKey && !e.altKey) {
        e.preventDefault();
        search.current?.focus();
      }
    };
    window.addEventListener("keydown", onKey);
    return () => window.removeEventListener("keydown", onKey);
  }, []);

  return (
    <div className="reference">
      <title>{`${t("title")} · ${tc("appName")}`}</title>
      <a className="skip-link" href="#main">
        {tc("skipToContent")}
      </a>
      <header className="reference-top">
        <Link to="/" className="brand">
          {tc("appName")}
        </Link>
        <nav aria-label={t("title")} className="reference-links">
          <a href="/api/v1/docs/openapi.yaml" download>
            {t("contractYaml")}
          </a>
          <a href="/api/v1/docs/openapi.json" download>
            {t("contractJson")}
          </a>
          <Link to="/">{t("openConsole")}</Link>
        </nav>
        <LanguageSelect quiet />
      </header>
      <div className="reference-body">
        <aside className="reference-nav">
          <div className="reference-search">
            <label htmlFor="reference-search">{t("search")}</label>
            <input
              id="reference-search"
              ref={search}
              type="search"
              value={query}
              autoComplete="off"
              aria-describedby="reference-search-hint reference-count"
              onChange={(e) => setQuery(e.target.value)}
            />
            <small id="reference-search-hint" className="muted">
              {t("searchHint")}
            </small>
            <p id="reference-count" className="muted" role="status">
              {t("shown", { count: shown, total })}
            </p>
          </div>
          <nav aria-label={t("operations")} className="reference-toc">
            {tags.map((tag) => (
              <div key={tag.name}>
                <p className="toc-tag" id={`toc-${tag.name}`}>
                  <a href={`#tag-${tag.name}`}>{tag.name}</a>
                </p>
                <ul aria-labelledby={`toc-${tag.name}`}>
                  {tag.operations.map((op) => (
                    <li key={op.id}>
                      <a href={`#${op.id}`} title={op.summary}>
                        <span className={`method method-${op.method.toLowerCase()}`}>{op.method}</span> <span className="toc-path">{op.path}</span>
                      </a>
                    </li>
                  ))}
                </ul>
              </div>
            ))}
          </nav>
        </aside>
        <main id="main" tabIndex={-1} className="reference-main" lang="en">
          <h1 lang={i18n.language}>{t("title")}</h1>
          {/* The overview leads the page, and follows what a search found, so that its
              Problem, which every operation links to, is always there. */}
          {!deferred && <Overview />}
          {shown === 0 && (
            <p role="alert" lang={i18n.language}>
              {t("noMatch", { query: deferred })}{" "}
              <button type="button" className="link" onClick={() => setQuery("")}>
                {t("clearSearch")}
              </button>
            </p>
          )}
          {tags.map((tag) => (
            <section key={tag.name} className="reference-tag" aria-labelledby={`tag-${tag.name}`}>
              <h2 id={`tag-${tag.name}`} tabIndex={-1}>
                {tag.name}
              </h2>
              <Prose text={tag.description} className="muted" />
              {tag.operations.map((op) => (
                <OperationView key={op.id} op={op} />
              ))}
            </section>
          ))}
          {deferred && <Overview />}
        </main>
      </div>
    </div>
  );
}

/** Overview is what every operation shares: the contract's introduction, how to
 * authenticate, the headers on every response, the Problem body and the marks. */
function Overview() {
  const { t, i18n } = useTranslation("reference");
  const problem = { mediaType: "application/json", schema: { $ref: "#/components/schemas/Problem" } };
  return (
    <section className="reference-overview" aria-labelledby="overview">
      <h2 id="overview" lang={i18n.language}>
        {t("overview")}
      </h2>
      <p className="muted" lang={i18n.language}>
        {t("intro")}
      </p>
      <p>
        <strong>{reference.title}</strong> <span className="muted">{reference.version}</span>
      </p>
      <Prose text={reference.description} />
      <h3 lang={i18n.language}>{t("authentication")}</h3>
      <p lang={i18n.language}>{t("authenticationIntro")}</p>
      <dl className="response-headers">
        {reference.securitySchemes.map((s) => (
          <div key={s.key}>
            <dt>
              <code>{s.title}</code>
            </dt>
            <dd>{s.description}</dd>
          </div>
        ))}
      </dl>
      <h3 lang={i18n.language}>{t("commonHeaders")}</h3>
      <dl className="response-headers">
        {reference.commonHeaders.map((h) => (
          <div key={h.name}>
            <dt>
              <code>{h.name}</code>
            </dt>
            <dd>
              <Prose text={h.description} />
            </dd>
          </div>
        ))}
      </dl>
      <h3 id="problem" tabIndex={-1}>
        {t("problem")}
      </h3>
      <p lang={i18n.language}>{t("problemIntro")}</p>
      <BodyView content={problem} />
      <h3 lang={i18n.language}>{t("marks")}</h3>
      <dl className="response-headers" lang={i18n.language}>
        {(["extension", "preview", "future"] as const).map((mark) => (
          <div key={mark}>
            <dt>
              <MarkBadges marks={[mark]} />
            </dt>
            <dd>{t(`markHint_${mark}`)}</dd>
          </div>
        ))}
      </dl>
    </section>
  );
}
