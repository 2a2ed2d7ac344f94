import { memo } from "react";
import { useTranslation } from "react-i18next";
import type { Operation } from "./model";
import { Prose } from "./Prose";
import { reference } from "./reference.gen";
import { BodyView } from "./SchemaView";
import { constraints, typeLabel } from "./schema";
import "./texts";

const schemeTitles = new Map(reference.securitySchemes.map((s) => [s.key, s.title]));

/** MarkBadges name an operation's marks: extension, preview, future. */
export function MarkBadges({ marks }: { marks: Operation["marks"] }) {
  const { t } = useTranslation("reference");
  return marks.map((mark) => (
    <span key={mark} className={`badge mark-${mark}`} title={t(`markHint_${mark}`)}>
      {t(`mark_${mark}`)}
    </span>
  ));
}

/** OperationView is one operation of the reference: method and path, what it does, how it
 * authenticates, its parameters, request body and every response, Problems included. Its
 * id is the operationId, so /reference#operationId leads to it. */
export const OperationView = memo(function OperationView({ op }: { op: Operation }) {
  const { t } = useTranslation("reference");
  const titleId = `${op.id}-title`;
  return (
    <article className="operation" id={op.id} tabIndex={-1} aria-labelledby={titleId}>
      <header className="operation-head">
        <h3 id={titleId}>
          <span className={`method method-${op.method.toLowerCase()}`}>{op.method}</span> <code className="path">{op.path}</code>
        </h3>
        <a className="operation-link" href={`#${op.id}`} aria-label={t("linkTo", { name: op.id })}>
          #{op.id}
        </a>
      </header>
      <p className="operation-summary">
        <strong>{op.summary}</strong> <MarkBadges marks={op.marks} />
      </p>
      <p className="operation-auth muted">
        {op.auth.length === 0 ? t("public") : t("needsCredentials", { schemes: op.auth.map((key) => schemeTitles.get(key) ?? key).join(", ") })}
      </p>
      <Prose text={op.description} />
      {op.parameters.length > 0 && (
        <section aria-label={t("parameters")}>
          <h4>{t("parameters")}</h4>
          <ul className="fields">
            {op.parameters.map((p) => (
              <li key={`${p.in} ${p.name}`}>
                <div className="field-head">
                  <code className="field-name">{p.name}</code>
                  <span className="muted">{t(`in_${p.in}` as "in_path")}</span>
                  {p.schema && <span className="schema-type">{typeLabel(p.schema)}</span>}
                  {p.schema && constraints(p.schema).length > 0 && <span className="schema-limits">{constraints(p.schema).join(", ")}</span>}
                  {p.schema?.enum && <span className="schema-values">{p.schema.enum.map((v) => JSON.stringify(v)).join(", ")}</span>}
                  <span className={p.required ? "field-required" : "muted"}>{p.required ? t("required") : t("optional")}</span>
                  {p.extension && <MarkBadges marks={["extension"]} />}
                </div>
                <Prose text={p.description} className="muted" />
              </li>
            ))}
          </ul>
        </section>
      )}
      {op.requestBody && (
        <section aria-label={t("requestBody")}>
          <h4>
            {t("requestBody")} <span className={op.requestBody.required ? "field-required" : "muted"}>{op.requestBody.required ? t("required") : t("optional")}</span>
          </h4>
          <Prose text={op.requestBody.description} />
          {op.requestBody.contents.map((c) => (
            <BodyView key={c.mediaType} content={c} />
          ))}
        </section>
      )}
      <section aria-label={t("responses")}>
        <h4>{t("responses")}</h4>
        <ul className="responses">
          {op.responses.map((r) => (
            <li key={r.status} className={r.problem ? "response problem" : "response"}>
              <div className="field-head">
                <span className={`status status-${r.status[0]}xx`}>{r.status}</span>
                {r.problem && <a href="#problem">{t("problem")}</a>}
              </div>
              <Prose text={r.description} />
              {r.headers.length > 0 && (
                <dl className="response-headers">
                  {r.headers.map((h) => (
                    <div key={h.name}>
                      <dt>
                        <code>{h.name}</code>
                      </dt>
                      <dd>{h.description || (h.schema ? typeLabel(h.schema) : "")}</dd>
                    </div>
                  ))}
                </dl>
              )}
              {!r.problem && r.contents.length === 0 && <p className="muted">{t("noBody")}</p>}
              {r.contents.map((c) => (
                <BodyView key={c.mediaType} content={c} />
              ))}
            </li>
          ))}
        </ul>
      </section>
    </article>
  );
});
